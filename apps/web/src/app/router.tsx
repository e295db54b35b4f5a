import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { RequireAuth, RootRedirect, SystemIndexRedirect, UserIndexRedirect } from './guards.tsx';
import { LazyPage } from './lazy-page.tsx';
import { ScreenError } from './screen-error.tsx';
import { currentLang } from '../i18n/index.ts';

/** A screen drawn with antd: its chunk and antd's providers (antd-scope.tsx) load together. */
function withAntd<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(async () => {
    // With antd's texts in the page's language, so the first frame does not draw them in English.
    const scope = import('./antd-scope.tsx').then(async (module) => {
      await module.loadAntdLocale(currentLang()).catch(() => undefined);
      return module;
    });
    const [{ default: AntdScope }, { default: Screen }] = await Promise.all([scope, load()]);
    return {
      default: (props: P) => (
        <AntdScope>
          <Screen {...props} />
        </AntdScope>
      ),
    };
  });
}

// Every screen is its own chunk: the /user pages never load ProLayout or ProTable, and the sign-in, sign-up and
// password reset no antd either. The sign-in and its shell load with the entry (vite.config.ts, SIGN_IN_SHARED).
const UserLayout = lazy(() => import('../pages/user/user-layout.tsx'));
const LoginPage = lazy(() => import('../pages/user/login-page.tsx'));
const SsoPage = withAntd(() => import('../pages/user/sso-page.tsx'));
const SsoCallbackPage = withAntd(() => import('../pages/user/sso-callback-page.tsx'));
const RegisterPage = lazy(() => import('../pages/user/register-page.tsx'));
const ForgotPasswordPage = lazy(() => import('../pages/user/forgot-password-page.tsx'));
const RegisterResultPage = withAntd(() => import('../pages/user/register-result-page.tsx'));
// The signed-in pages render inside the shell, so antd's providers come with it.
const BasicLayout = withAntd(() => import('./layout/basic-layout.tsx'));
const HomePage = lazy(() => import('../pages/home/home-page.tsx'));
const ProjectListPage = lazy(() => import('../pages/project/project-list-page.tsx'));
const ProjectDetailPage = lazy(() => import('../pages/project/project-detail-page.tsx'));
const DeviceControlPage = lazy(() => import('../pages/device/device-control-page.tsx'));
const DeviceListPage = lazy(() => import('../pages/device/list/device-list-page.tsx'));
const DeviceConfigListPage = lazy(() => import('../pages/device/config/device-config-list-page.tsx'));
const DeviceConfigDetailPage = lazy(() => import('../pages/device/config/device-config-detail-page.tsx'));
const GroupPage = lazy(() => import('../pages/group/group-page.tsx'));
const GatewayListPage = lazy(() => import('../pages/gateway/gateway-list-page.tsx'));
const GatewayDetailPage = lazy(() => import('../pages/gateway/gateway-detail-page.tsx'));
const SceneListPage = lazy(() => import('../pages/scene/scene-list-page.tsx'));
const SceneEditorPage = lazy(() => import('../pages/scene/scene-editor-page.tsx'));
const SceneDetailPage = lazy(() => import('../pages/scene/scene-detail-page.tsx'));
const SceneSchedulePage = lazy(() => import('../pages/scene/scene-schedule-page.tsx'));
const EnergyStatisticsPage = lazy(() => import('../pages/energy/energy-statistics-page.tsx'));
const EnergyDetailPage = lazy(() => import('../pages/energy/energy-detail-page.tsx'));
const ReportPage = lazy(() => import('../pages/energy/report-page.tsx'));
const EmergencySetPage = lazy(() => import('../pages/emergency/emergency-set-page.tsx'));
const EmergencyTaskEditorPage = lazy(() => import('../pages/emergency/task-editor-page.tsx'));
const EmergencyTaskDetailPage = lazy(() => import('../pages/emergency/task-detail-page.tsx'));
const EmergencyReportPage = lazy(() => import('../pages/emergency/emergency-report-page.tsx'));
const EmergencyReportDetailsPage = lazy(() => import('../pages/emergency/report-details-page.tsx'));
const HeatmapPage = lazy(() => import('../pages/heatmap/heatmap-page.tsx'));
const AlertStatisticsPage = lazy(() => import('../pages/alert/alert-statistics-page.tsx'));
const AlertListPage = lazy(() => import('../pages/alert/alert-list-page.tsx'));
const AlarmListPage = lazy(() => import('../pages/alert/alarm-list-page.tsx'));
const AlarmSettingsPage = lazy(() => import('../pages/alert/alarm-settings-page.tsx'));
const PushNewsListPage = lazy(() => import('../pages/push/news-list-page.tsx'));
const PushAppsPage = lazy(() => import('../pages/push/apps-page.tsx'));
const PushAppEditorPage = lazy(() => import('../pages/push/app-editor-page.tsx'));
const PushNewsEditorPage = lazy(() => import('../pages/push/news-editor-page.tsx'));
const PushNewsDetailsPage = lazy(() => import('../pages/push/news-details-page.tsx'));
const PushReviewPage = lazy(() => import('../pages/push/review-page.tsx'));
const AccountPage = lazy(() => import('../pages/system/account-page.tsx'));
const CenterPage = lazy(() => import('../pages/system/center-page.tsx'));
const LibraryPage = lazy(() => import('../pages/system/library-page.tsx'));
const FunctionParameterPage = lazy(() => import('../pages/system/function-parameter-page.tsx'));
const InterfaceParameterPage = lazy(() => import('../pages/system/interface-parameter-page.tsx'));
const OutboxPage = lazy(() => import('../pages/system/outbox-page.tsx'));
const RolloutPage = lazy(() => import('../pages/system/rollout-page.tsx'));
const AuditPage = lazy(() => import('../pages/system/audit-page.tsx'));
const ApiKeysPage = lazy(() => import('../pages/system/api-keys-page.tsx'));
const WebhooksPage = lazy(() => import('../pages/system/webhooks-page.tsx'));
const SsoSettingsPage = lazy(() => import('../pages/system/sso-settings-page.tsx'));
const DataPage = lazy(() => import('../pages/system/data-page.tsx'));
const NotFoundPage = lazy(() => import('../pages/exception/not-found-page.tsx'));

const page = (element: React.ReactNode) => <LazyPage>{element}</LazyPage>;

export const router = createBrowserRouter([
  { path: '/', element: <RootRedirect />, errorElement: <ScreenError /> },
  {
    path: '/user',
    element: page(<UserLayout />),
    errorElement: <ScreenError />,
    children: [
      { index: true, element: <UserIndexRedirect /> },
      { path: 'login', element: page(<LoginPage method="mail" />) },
      { path: 'tel-login', element: page(<LoginPage method="tel" />) },
      { path: 'registered', element: page(<RegisterPage method="mail" />) },
      { path: 'tel-registered', element: page(<RegisterPage method="tel" />) },
      { path: 'forgetPwd', element: page(<ForgotPasswordPage />) },
      { path: 'sso', element: page(<SsoPage />) },
      { path: 'sso/callback', element: page(<SsoCallbackPage />) },
      { path: 'register-result', element: page(<RegisterResultPage />) },
      { path: '*', element: <UserIndexRedirect /> },
    ],
  },
  {
    element: <RequireAuth>{page(<BasicLayout />)}</RequireAuth>,
    errorElement: <ScreenError />,
    // A screen that fails to load or draw inside the shell leaves the menu in place.
    children: [
      {
        errorElement: <ScreenError />,
        children: [
          { path: 'home', element: page(<HomePage />) },
          {
            path: 'project',
            children: [
              { index: true, element: <Navigate to="/project/list" replace /> },
              { path: 'list', element: page(<ProjectListPage />) },
              // The project is the query id, as the spec's other detail screens take theirs.
              { path: 'detail', element: page(<ProjectDetailPage />) },
            ],
          },
          {
            path: 'device',
            children: [
              { index: true, element: <Navigate to="/device/control" replace /> },
              { path: 'control', element: page(<DeviceControlPage />) },
              {
                path: 'list',
                children: [
                  { index: true, element: <Navigate to="/device/list/list" replace /> },
                  { path: 'list', element: page(<DeviceListPage view="list" />) },
                  { path: 'status', element: page(<DeviceListPage view="status" />) },
                ],
              },
              {
                path: 'config',
                children: [
                  { index: true, element: <Navigate to="/device/config/list" replace /> },
                  { path: 'list', element: page(<DeviceConfigListPage />) },
                  // The device is the query id, as the other detail screens take theirs.
                  { path: 'detail', element: page(<DeviceConfigDetailPage />) },
                ],
              },
              // Groups (zones) of a map: its own screen in the device area (docs/decisions.md).
              { path: 'group', element: page(<GroupPage />) },
            ],
          },
          {
            path: 'gateway',
            children: [
              { index: true, element: <Navigate to="/gateway/list" replace /> },
              { path: 'list', element: page(<GatewayListPage />) },
              // The gateway is the query id, as the project detail takes its project.
              { path: 'detail', element: page(<GatewayDetailPage />) },
            ],
          },
          {
            path: 'scene',
            children: [
              { index: true, element: <Navigate to="/scene/list" replace /> },
              { path: 'list', element: page(<SceneListPage />) },
              { path: 'schedule', element: page(<SceneSchedulePage />) },
              // One editor family; editing takes the scene as query id on its kind's route (spec section 2).
              {
                path: 'add',
                children: [
                  { index: true, element: <Navigate to="/scene/add/manual" replace /> },
                  { path: 'manual', element: page(<SceneEditorPage key="manual" route="manual" />) },
                  { path: 'schedule', element: page(<SceneEditorPage key="schedule" route="schedule" />) },
                  { path: 'sunriseSunset', element: page(<SceneEditorPage key="sun" route="sun" />) },
                  { path: 'reportonce', element: page(<SceneEditorPage key="once" route="once" />) },
                  { path: 'sequence', element: page(<SceneEditorPage key="sequence" route="sequence" />) },
                ],
              },
              { path: 'detail', element: page(<SceneDetailPage />) },
            ],
          },
          {
            path: 'energy',
            children: [
              { index: true, element: <Navigate to="/energy/index" replace /> },
              { path: 'index', element: page(<EnergyStatisticsPage />) },
              { path: 'detail', element: page(<EnergyDetailPage />) },
              // Report management: the menu names it (spec section 2) without a path; it sits with the energy it mails.
              { path: 'report', element: page(<ReportPage />) },
            ],
          },
          {
            // Spec section 2: /emergency opens detection management; its tab pair is on /emergency/set (?tab=map).
            path: 'emergency',
            children: [
              { index: true, element: <Navigate to="/emergency/set" replace /> },
              {
                path: 'set',
                children: [
                  { index: true, element: page(<EmergencySetPage />) },
                  // A new task, or the task i of project p (spec section 2's query for detection settings).
                  { path: 'add', element: page(<EmergencyTaskEditorPage />) },
                  { path: 'details', element: page(<EmergencyTaskDetailPage />) },
                ],
              },
              {
                path: 'report',
                children: [
                  // Test records, the log book and compliance as tabs (?tab=logBook, ?tab=compliance).
                  { index: true, element: page(<EmergencyReportPage />) },
                  { path: 'details', element: page(<EmergencyReportDetailsPage />) },
                ],
              },
            ],
          },
          // Spec section 2: opened from the device map with the map, range and view in the query.
          { path: 'heatmap', element: page(<HeatmapPage />) },
          {
            path: 'alert',
            children: [
              { index: true, element: <Navigate to="/alert/index" replace /> },
              { path: 'index', element: page(<AlertStatisticsPage />) },
              { path: 'list', element: page(<AlertListPage />) },
              { path: 'alarms', element: page(<AlarmListPage />) },
              { path: 'alarmSettings', element: page(<AlarmSettingsPage />) },
            ],
          },
          {
            // SaaS mode only (spec section 2); the layout's canOpen keeps everyone else out.
            path: 'push',
            children: [
              { index: true, element: <Navigate to="/push/index" replace /> },
              { path: 'index', element: page(<PushNewsListPage />) },
              { path: 'child/index', element: page(<PushAppsPage />) },
              { path: 'addApp', element: page(<PushAppEditorPage key="add" mode="add" />) },
              { path: 'editApp', element: page(<PushAppEditorPage key="edit" mode="edit" />) },
              { path: 'addNews', element: page(<PushNewsEditorPage key="add" mode="add" />) },
              { path: 'editNews', element: page(<PushNewsEditorPage key="edit" mode="edit" />) },
              { path: 'details', element: page(<PushNewsDetailsPage />) },
              // The pushed review screen, whose path the spec does not show.
              { path: 'review', element: page(<PushReviewPage />) },
            ],
          },
          {
            path: 'system',
            children: [
              // The spec's /system lands on accounts for those who manage them; everyone else on the user centre.
              { index: true, element: <SystemIndexRedirect /> },
              { path: 'account', element: page(<AccountPage />) },
              { path: 'library', element: page(<LibraryPage />) },
              { path: 'functionParameter', element: page(<FunctionParameterPage />) },
              { path: 'interfaceParameter', element: page(<InterfaceParameterPage />) },
              { path: 'center', element: page(<CenterPage />) },
              { path: 'outbox', element: page(<OutboxPage />) },
              { path: 'rollout', element: page(<RolloutPage />) },
              { path: 'audit', element: page(<AuditPage />) },
              { path: 'apiKeys', element: page(<ApiKeysPage />) },
              { path: 'webhooks', element: page(<WebhooksPage />) },
              { path: 'sso', element: page(<SsoSettingsPage />) },
              { path: 'data', element: page(<DataPage />) },
            ],
          },
          { path: '*', element: page(<NotFoundPage />) },
        ],
      },
    ],
  },
]);
