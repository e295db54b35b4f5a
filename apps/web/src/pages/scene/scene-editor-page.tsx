import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Result, Space, Spin, Typography } from 'antd';
import { CameraOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  SCENE_LIMITS,
  TIMED_SCENE_KINDS,
  sceneFieldsProblem,
  userMay,
  type SceneKind,
  type SceneSaveResult,
} from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { ALL_GATEWAYS, useGatewayPage } from '../../features/gateways/api.ts';
import { createCurrentMapStore } from '../../features/projects/current-map.ts';
import { useCurrentProject } from '../../features/projects/project-select.tsx';
import { firstMapOf, pathOfMap } from '../../features/projects/tree.ts';
import { useAddScene, useScene, useScenePicture, useSceneSettings, useUpdateScene } from '../../features/scenes/api.ts';
import { useMapCatalog } from '../../features/scenes/catalog.ts';
import {
  fieldsOf,
  initialState,
  memberKey,
  stateFromDetail,
  type EditorMember,
  type EditorState,
} from '../../features/scenes/editor-state.ts';
import { targetsPerGateway } from '../../features/scenes/members.ts';
import { EDITOR_ROUTE, editPath, slotProblems } from '../../features/scenes/timing.ts';
import { previewRuns, type GatewayPlace } from '../../features/scenes/upcoming.ts';
import { MemberList } from './member-list.tsx';
import { MemberPicker } from './member-picker.tsx';
import { EditorBasics, EditorTiming, type EditorRoute } from './editor-sections.tsx';
import { codeText, SyncResultList } from './scene-results.tsx';
import type { PictureChange } from '../../components/picture-picker.tsx';
import { ScenePicturePicker } from './scene-picture.tsx';
import { SequenceSteps } from './sequence-steps.tsx';
import { UpcomingRuns } from './upcoming-runs.tsx';

const ROUTE_KIND: Record<Exclude<EditorRoute, 'schedule'>, SceneKind> = {
  manual: 'manual',
  sun: 'sun',
  once: 'once',
  sequence: 'sequence',
};

/**
 * Every scene editor (/scene/add/manual, schedule, sunriseSunset, reportonce, sequence; query id edits): name,
 * fade time, the member picker with each member's target, and the kind's own part (time slots, sun times, a
 * date and time, steps). Saving shows how each gateway took its part, then returns to the list.
 */
export default function SceneEditorPage({ route }: { route: EditorRoute }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const sceneId = params.get('id') ?? undefined;
  const { data: user } = useMe();
  const editable = userMay(user, 'write');
  const detail = useScene(sceneId);
  const add = useAddScene();
  const update = useUpdateScene();
  const scenePicture = useScenePicture();
  const [picture, setPicture] = useState<PictureChange>();

  const startKind: SceneKind =
    route === 'schedule' ? (params.get('kind') === 'groupSchedule' ? 'groupSchedule' : 'schedule') : ROUTE_KIND[route];
  const [state, setState] = useState<EditorState>(() => initialState(startKind));
  const [loaded, setLoaded] = useState<{ id: string; snapshot: string }>();
  const [submitted, setSubmitted] = useState(false);
  const [activeStep, setActiveStep] = useState(0);
  const [capturing, setCapturing] = useState(false);
  const update$ = (patch: Partial<EditorState>) => setState((current) => ({ ...current, ...patch }));

  // A new scene from the menu on the same route (schedule -> group schedule) starts over.
  useEffect(() => {
    if (!sceneId) {
      setState(initialState(startKind));
      setPicture(undefined);
    }
  }, [sceneId, startKind]);

  useEffect(() => {
    const scene = detail.data;
    if (!scene || loaded?.id === scene.id) return;
    // A scene opened on another kind's editor goes to its own.
    if (EDITOR_ROUTE[scene.kind] !== EDITOR_ROUTE[startKind === 'groupSchedule' ? 'schedule' : startKind]) {
      void navigate(editPath(scene), { replace: true });
      return;
    }
    const next = stateFromDetail(scene);
    setState(next);
    setLoaded({ id: scene.id, snapshot: JSON.stringify(next) });
  }, [detail.data, loaded, navigate, startKind]);

  const current = useCurrentProject();
  const projectId = detail.data?.projectId ?? current.projectId;
  const project = current.tree.data?.projects.find((p) => p.id === projectId);

  // The picker opens on the map of the first member, else the map the device pages remember, else the project's first.
  const [place, setPlace] = useState<[string, string]>();
  const members = useMemo(() => state.steps.flatMap((s) => s.members), [state.steps]);
  useEffect(() => {
    if (place || !project || !current.tree.data || (sceneId && !loaded)) return;
    const memberMap = members.find((m) => m.mapId)?.mapId;
    const fromMember = memberMap ? pathOfMap(current.tree.data, memberMap) : undefined;
    const remembered = createCurrentMapStore().read().path;
    const fromStore = remembered?.[0] === project.id && remembered.length === 3 ? remembered : undefined;
    const path = fromMember ?? fromStore ?? firstMapOf(project);
    if (path?.[1] && path[2]) setPlace([path[1], path[2]]);
  }, [place, project, current.tree.data, members, sceneId, loaded]);

  const mapIds = useMemo(
    () => [...new Set([...members.map((m) => m.mapId), place?.[1]].filter((id): id is string => Boolean(id)))],
    [members, place],
  );
  const catalog = useMapCatalog(mapIds, place?.[1]);
  const gatewayPage = useGatewayPage(ALL_GATEWAYS);
  const gateways = useMemo(() => new Map((gatewayPage.data?.list ?? []).map((g) => [g.id, g])), [gatewayPage.data]);
  const gatewayNames = useMemo(
    () =>
      new Map([
        ...(detail.data?.parts ?? []).map((p) => [p.gatewayId, p.gatewayName] as const),
        ...[...gateways.values()].map((g) => [g.id, g.name] as const),
      ]),
    [detail.data, gateways],
  );
  const settings = useSceneSettings(projectId);

  const { kind } = state;
  const timed = TIMED_SCENE_KINDS.includes(kind);
  const fields = useMemo(() => fieldsOf(state, projectId ?? '', catalog.controlsOf), [state, projectId, catalog]);
  const dirty = !loaded || JSON.stringify(state) !== loaded.snapshot;

  const places: GatewayPlace[] = useMemo(
    () =>
      [...new Set(members.map((m) => m.gatewayId))].flatMap((id) => {
        const g = gateways.get(id);
        return g
          ? [{ gatewayId: g.id, gatewayName: g.name, latitude: g.latitude, longitude: g.longitude, timezone: g.settings.timezone }]
          : [];
      }),
    [members, gateways],
  );
  const preview = useMemo(
    () => (timed ? previewRuns(fields, places, settings.data?.holidays.map((h) => h.date) ?? [], Date.now(), 7) : undefined),
    [timed, fields, places, settings.data],
  );
  const crowded = [...targetsPerGateway(members)].filter(([, count]) => count > SCENE_LIMITS.targetsPerGateway.default);

  const setStepMembers = (index: number, next: EditorMember[]) =>
    setState((s) => ({ ...s, steps: s.steps.map((step, i) => (i === index ? { ...step, members: next } : step)) }));
  const addMembers = (picked: EditorMember[]) => {
    const index = kind === 'sequence' ? Math.min(activeStep, state.steps.length - 1) : 0;
    const have = new Set(state.steps[index]?.members.map(memberKey));
    setStepMembers(index, [...(state.steps[index]?.members ?? []), ...picked.filter((m) => !have.has(memberKey(m)))]);
  };

  const capture = async () => {
    setCapturing(true);
    try {
      const captured = await catalog.capture(members);
      let silent = 0;
      setState((s) => ({
        ...s,
        steps: s.steps.map((step) => ({
          ...step,
          members: step.members.map((m) => {
            const action = captured.get(memberKey(m));
            if (!action) silent++;
            return action ? { ...m, action } : m;
          }),
        })),
      }));
      void message.success(t('scenes.captured', { count: members.length }));
      if (silent > 0) void message.warning(t('scenes.captureSilent', { count: silent }));
    } catch {
      // The client has shown why the lists could not be read.
    } finally {
      setCapturing(false);
    }
  };

  const switchKind = (next: SceneKind) => {
    if (next === 'groupSchedule' && members.some((m) => m.type === 'device')) {
      setState((s) => ({
        ...s,
        kind: next,
        steps: s.steps.map((step) => ({ ...step, members: step.members.filter((m) => m.type === 'group') })),
      }));
      void message.info(t('scenes.groupsOnlyKept'));
    } else update$({ kind: next });
  };

  const showSync = (result: SceneSaveResult) => {
    const allTook = result.sync.every((s) => s.code === 0);
    (allTook ? modal.success : modal.warning)({
      title: t(sceneId ? 'scenes.savedTitle' : 'scenes.createdTitle', { name: result.scene.name }),
      content: <SyncResultList t={t} sync={result.sync} />,
      okText: t('scenes.backToList'),
      width: 520,
      onOk: () => void navigate('/scene/list'),
    });
  };

  const submit = async () => {
    setSubmitted(true);
    if (!projectId) return;
    const slotsWrong = (kind === 'schedule' || kind === 'groupSchedule') && slotProblems(state.slots).some(Boolean);
    const problem = sceneFieldsProblem(fields);
    if (problem || slotsWrong) {
      void message.error(problem ? codeText(t, problem) : t('scenes.timing.fixSlots'));
      return;
    }
    const result = sceneId ? await update.mutateAsync({ id: sceneId, ...fields }) : await add.mutateAsync(fields);
    if (sceneId) setLoaded({ id: sceneId, snapshot: JSON.stringify(state) });
    // The picture needs the scene's id, so it follows the save; the scene stands even if the picture fails.
    if (picture !== undefined) {
      try {
        await scenePicture.mutateAsync({ sceneId: result.scene.id, file: picture });
        setPicture(undefined);
      } catch {
        void message.warning(t('scenes.picture.notSaved'));
      }
    }
    showSync(result);
  };

  if (!editable && user) {
    return (
      <PageContainer title={t(`scenes.editorTitle.${kind}`)}>
        <Result
          status="403"
          title={t('scenes.viewOnly')}
          extra={<Button onClick={() => void navigate('/scene/list')}>{t('scenes.backToList')}</Button>}
        />
      </PageContainer>
    );
  }
  if (sceneId && (detail.isLoading || !loaded)) {
    if (detail.isError) return <Result status="404" title={t('scenes.notFound')} />;
    return <Spin style={{ display: 'block', margin: '96px auto' }} />;
  }

  const groupsOnly = kind === 'groupSchedule';
  const stepIndex = kind === 'sequence' ? Math.min(activeStep, state.steps.length - 1) : 0;
  const taken = new Set(state.steps[stepIndex]?.members.map(memberKey));

  return (
    <PageContainer
      title={sceneId ? t('scenes.editTitle', { name: detail.data?.name ?? '' }) : t(`scenes.editorTitle.${kind}`)}
      content={t(`scenes.editorHint.${kind}`)}
      footer={[
        <Button key="cancel" onClick={() => void navigate('/scene/list')}>
          {t('scenes.cancel')}
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={add.isPending || update.isPending || scenePicture.isPending}
          disabled={!projectId}
          onClick={() => void submit().catch(() => undefined)}
          data-testid="scene-save"
        >
          {t('scenes.save')}
        </Button>,
      ]}
    >
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <EditorBasics
          state={state}
          update$={update$}
          submitted={submitted}
          route={route}
          editing={Boolean(sceneId)}
          tree={current.tree.data}
          projectId={projectId}
          onProjectChange={(id: string) => {
            current.setProjectId(id);
            setPlace(undefined);
            setState((s) => ({ ...s, steps: s.steps.map((step) => ({ ...step, members: [] })) }));
          }}
          onKindChange={switchKind}
          picture={<ScenePicturePicker saved={detail.data?.image ?? null} change={picture} onChange={setPicture} />}
        />

        {timed && <EditorTiming state={state} update$={update$} submitted={submitted} />}

        <Card
          title={groupsOnly ? t('scenes.section.groups') : t('scenes.section.members')}
          size="small"
          extra={
            <Button
              icon={<CameraOutlined />}
              loading={capturing}
              disabled={members.length === 0}
              onClick={() => void capture()}
              data-testid="scene-capture"
            >
              {t('scenes.capture')}
            </Button>
          }
        >
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <MemberPicker
              project={project}
              place={place}
              onPlaceChange={setPlace}
              catalog={catalog}
              gateways={gateways}
              groupsOnly={groupsOnly}
              taken={taken}
              addLabel={kind === 'sequence' ? t('scenes.picker.addToStep', { n: stepIndex + 1 }) : t('scenes.picker.add')}
              onAdd={addMembers}
            />
            {crowded.length > 0 && (
              <Alert
                type="warning"
                showIcon
                message={t('scenes.crowded', { max: SCENE_LIMITS.targetsPerGateway.default })}
                description={crowded.map(([id, count]) => `${gateways.get(id)?.name ?? id}: ${count}`).join(', ')}
              />
            )}
            {submitted && members.length === 0 && <Alert type="error" showIcon message={codeText(t, 110009)} />}
            {kind === 'sequence' ? (
              <SequenceSteps
                steps={state.steps}
                active={stepIndex}
                onActivate={setActiveStep}
                onChange={(steps) => update$({ steps })}
                catalog={catalog}
                gateways={gateways}
              />
            ) : (
              <MemberList
                members={state.steps[0]?.members ?? []}
                catalog={catalog}
                gateways={gateways}
                onChange={(next) => setStepMembers(0, next)}
              />
            )}
          </Space>
        </Card>

        {timed && preview && (
          <Card title={t('scenes.section.upcoming')} size="small">
            {sceneId && !dirty && detail.data ? (
              <UpcomingRuns runs={detail.data.upcoming} gatewayNames={gatewayNames} note={t('scenes.upcoming.saved')} />
            ) : (
              <UpcomingRuns
                runs={preview.runs}
                gatewayNames={gatewayNames}
                unlocated={preview.unlocated.map((g) => g.gatewayName)}
                note={members.length === 0 ? t('scenes.upcoming.addMembers') : t('scenes.upcoming.preview')}
              />
            )}
          </Card>
        )}
        <Typography.Text type="secondary">{t('scenes.syncHint')}</Typography.Text>
      </Space>
    </PageContainer>
  );
}
