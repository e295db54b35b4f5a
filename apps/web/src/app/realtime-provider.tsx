import {
  createContext,
  useContext,
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
  type Ref,
} from 'react';
import { App as AntApp } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { REALTIME_ENDPOINT, userDestination, type Destination } from '@lumigrid/contract/browser';
import { session, signOutRoute } from '../api/session.ts';
import { alertKeys } from '../features/alerts/api.ts';
import { deviceKeys } from '../features/devices/api.ts';
import { emergencyKeys } from '../features/emergency/api.ts';
import { gatewayKeys } from '../features/gateways/api.ts';
import { groupKeys } from '../features/groups/api.ts';
import { useBoot } from './boot.tsx';
import { notice } from './toast.ts';
import { defectiveWarning, gatewayStatusChange, reactionToNotice, signOutText } from '../realtime/notices.ts';
import { createRealtimeClient, type RealtimeClient, type SubscribedHandler } from '../realtime/realtime-client.ts';

const RealtimeContext = createContext<RealtimeClient | undefined>(undefined);

/** Ends this tab's session with a dialog saying why: a business code's message, or a text of the page's own. */
type ForcedSignOut = (reason: number | string) => void;
const ForcedSignOutContext = createContext<ForcedSignOut | undefined>(undefined);

/**
 * The shell's one forced sign-out: whichever notices the end first (the real-time notice, a page's own
 * call) signs out and shows the dialog; the others find it done.
 */
export function useForcedSignOut(): ForcedSignOut {
  const signOut = useContext(ForcedSignOutContext);
  if (!signOut) throw new Error('useForcedSignOut needs the RealtimeProvider');
  return signOut;
}

/** What the layout may do with the channel: stop it before its own sign-out, so that is not a forced one. */
export interface RealtimeControl {
  stop(): Promise<void>;
}

/**
 * Calls `handler` with every payload published on `destination` while the component is mounted and the
 * user is signed in; an undefined destination listens to nothing. Survives reconnects. `subscribed` runs when the
 * server confirms the subscription: a page that read its data before then reads it again, or it would miss what
 * was published in between.
 */
export function useRealtime<Message>(
  destination: Destination<Message> | undefined,
  handler: (payload: Message, destination: string) => void,
  subscribed?: SubscribedHandler,
): void {
  const client = useContext(RealtimeContext);
  const latest = useRef({ handler, subscribed });
  useEffect(() => {
    latest.current = { handler, subscribed };
  });
  useEffect(() => {
    if (!client || !destination) return;
    return client.listen(
      destination,
      // The server publishes on a destination only what its live topic's schema allows (contract live-topics.ts).
      (payload, from) => latest.current.handler(payload as Message, from),
      () => latest.current.subscribed?.(),
    );
  }, [client, destination]);
}

/** The user's own topics of spec section 7 (forced logout, gateway update results, device faults) and gateway changes. */
function UserNotices({ userId, onSignedOut }: { userId: string; onSignedOut: (code: number) => void }) {
  const { notification } = AntApp.useApp();
  const { t } = useTranslation();

  useRealtime(userDestination('global_message_notice', userId), (payload) => {
    const reaction = reactionToNotice(payload);
    if (!reaction) return;
    if (reaction.kind === 'signOut') return onSignedOut(reaction.code);
    notification[reaction.level]({ message: t('realtime.update.title'), description: t(reaction.key, { name: reaction.name }) });
  });

  // A gateway of the account changed (presence, sync, firmware): what shows it is read again, at once.
  const queryClient = useQueryClient();
  useRealtime(userDestination('gateway_status', userId), (payload) => {
    const change = gatewayStatusChange(payload);
    if (!change) return;
    void queryClient.invalidateQueries({ queryKey: change.kind === 'firmware' ? gatewayKeys.firmware(change.id) : gatewayKeys.all });
    if (change.kind === 'firmware' && change.result !== null) void queryClient.invalidateQueries({ queryKey: gatewayKeys.all });
    // Devices behind a gateway that is not online are offline (the server says so on every view): the plan,
    // the lists, the groups, the status counts and the emergency screens are read again when it comes or goes.
    if (change.kind === 'presence') {
      for (const queryKey of [deviceKeys.all, groupKeys.all, alertKeys.all, emergencyKeys.all])
        void queryClient.invalidateQueries({ queryKey });
    }
  });

  useRealtime(userDestination('defective', userId), (payload) => {
    const warning = defectiveWarning(payload);
    if (!warning) return;
    // A new fault is a new alert: the fault list shows it at once.
    void queryClient.invalidateQueries({ queryKey: alertKeys.all });
    notification.warning({
      message: t('realtime.defectiveTitle'),
      description: t('realtime.defective', { name: warning.name, fault: t(warning.faultKey) }),
    });
  });
  return null;
}

/**
 * The real-time channel of the signed-in user: one STOMP connection for the authenticated shell, open
 * while there is a token. A session ended on the server signs this tab out with the localised reason.
 */
export function RealtimeProvider({ userId, control, children }: { userId: string; control?: Ref<RealtimeControl>; children: ReactNode }) {
  const { t } = useTranslation();
  const { mode, lang } = useBoot();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const token = useSyncExternalStore(session.subscribe, session.token);
  const [client, setClient] = useState<RealtimeClient>();
  const clientRef = useRef<RealtimeClient | undefined>(undefined);

  // A type 0 notice is followed by the ERROR that closes the socket: one sign-out, one dialog.
  const ended = useRef(false);
  const signedOut = (reason: number | string) => {
    // The token may be gone already (another tab of this browser signed out); this tab still leaves.
    if (ended.current) return;
    ended.current = true;
    const target = signOutRoute(mode, session.loginType());
    void clientRef.current?.stop();
    session.clear();
    queryClient.clear();
    // The shell and its dialogs go with the sign-out: the notice is one of its own, read on the sign-in page.
    notice(t('realtime.signedOutTitle'), typeof reason === 'number' ? signOutText(reason, lang) : reason);
    void navigate(target, { replace: true });
  };
  const signedOutRef = useRef(signedOut);
  useEffect(() => {
    signedOutRef.current = signedOut;
  });

  useImperativeHandle(control, () => ({ stop: async () => clientRef.current?.stop() }), []);
  const forcedSignOut = useRef<ForcedSignOut>((reason) => signedOutRef.current(reason)).current;

  useEffect(() => {
    if (!token) return;
    const created = createRealtimeClient({
      url: `${window.location.origin}${REALTIME_ENDPOINT}`,
      token: () => session.token(),
      onSessionEnded: (code) => signedOutRef.current(code),
      // Presence, control results and faults published while the socket was down never arrive: every view on
      // screen is read again, so none goes on showing a state that has changed.
      onReconnected: () => void queryClient.invalidateQueries(),
    });
    clientRef.current = created;
    created.start();
    setClient(created);
    return () => {
      void created.stop();
      clientRef.current = undefined;
      setClient(undefined);
    };
  }, [token, queryClient]);

  return (
    <RealtimeContext.Provider value={client}>
      <ForcedSignOutContext.Provider value={forcedSignOut}>
        <UserNotices userId={userId} onSignedOut={forcedSignOut} />
        {children}
      </ForcedSignOutContext.Provider>
    </RealtimeContext.Provider>
  );
}
