// The UMD build of sockjs-client has the same API as its main entry (see realtime-client.ts).
declare module 'sockjs-client/dist/sockjs.min.js' {
  import SockJS from 'sockjs-client';
  export default SockJS;
}
