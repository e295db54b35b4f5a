import { userMay } from '@lumigrid/contract/browser';
import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { App, Button, Cascader, Select, Slider, Space, Spin } from 'antd';
import { Card } from '../../components/card.tsx';
import { Text } from '../../components/text.tsx';
import { FireOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PROJECT_LIMITS, mapDestination, type GatewayDevice } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import {
  applyMapMessage,
  deviceMapKeys,
  useDevicePositions,
  useMapGateways,
  useMapMarkers,
  useMoveDevicesIn,
} from '../../features/devices/api.ts';
import { MapLegend } from '../../features/devices/map-legend.tsx';
import {
  SHOW_ALL,
  markerKind,
  markerLabel,
  passesFilter,
  planToFraction,
  type PlanFilter,
} from '../../components/device-markers/marker-model.ts';
import { GATEWAY_DRAG_TYPE, OUTMAP_DRAG_TYPE, OutmapList } from '../../features/devices/outmap-list.tsx';
import { useGatewayPosition } from '../../features/gateways/api.ts';
import { useRealtime } from '../../app/realtime-provider.tsx';
import { DeviceMarkerLayer } from '../../features/devices/device-marker-layer.tsx';
import { useVirtualPlan } from '../../features/virtual/use-virtual-plan.ts';
import { VirtualMarkerLayer } from '../../features/virtual/virtual-marker-layer.tsx';
import { VirtualDevicesCard } from '../../features/virtual/virtual-devices-card.tsx';
import { gatewayMarkerId, gatewayOfMarker } from '../../features/devices/plan-markers.ts';
import { projectApi, useUpdateMap } from '../../features/projects/api.ts';
import { useDownload } from '../../api/download.ts';
import { useCurrentMapPath } from '../../features/projects/use-current-map-path.ts';
import { FloorPlanMap } from '../../components/floor-plan-map.tsx';
import { usePhone } from '../../components/use-phone.ts';
import { groupKeys } from '../../features/groups/api.ts';
import { throttle } from '../../features/groups/group-state.ts';
import { PlanTools, useNoHover } from './plan-tools.tsx';
import { stillShown, toggled, withAll, type PlanSelection } from '../../features/devices/plan-selection.ts';
import { PLACING_PARAMS } from '../../features/devices/placing-walk.ts';
import { usePlacingWalk } from '../../features/devices/use-placing-walk.ts';
import { PlanTap } from '../../features/devices/plan-tap.ts';
import { OnceOpened } from '../../components/once-opened.tsx';
import './plan-tools.css';
import { EmptyLead } from '../../components/empty-hint.tsx';
import { DownloadButton } from '../../components/download-button.tsx';

// The drawers load when first opened: the plan draws without their code (controls, forms, colour picker).
const DevicePanel = lazy(() => import('../../features/devices/device-panel.tsx').then((m) => ({ default: m.DevicePanel })));
const VirtualDevicePanel = lazy(() =>
  import('../../features/virtual/virtual-device-panel.tsx').then((m) => ({ default: m.VirtualDevicePanel })),
);
const PlanGroupsSheet = lazy(() => import('./plan-groups-sheet.tsx').then((m) => ({ default: m.PlanGroupsSheet })));
const GroupControlDrawer = lazy(() =>
  import('../../features/devices/group-control-drawer.tsx').then((m) => ({ default: m.GroupControlDrawer })),
);
// So do the bars shown while devices are picked or placed (group, scene and batch control forms).
const PlanSelectionBar = lazy(() => import('./plan-selection-bar.tsx').then((m) => ({ default: m.PlanSelectionBar })));
const PlacingWalkBar = lazy(() => import('./placing-walk-bar.tsx').then((m) => ({ default: m.PlacingWalkBar })));

/**
 * The device map (/device/control): the chosen map's floor plan in Leaflet, chosen with a project >
 * building > map selector that remembers the current project across visits. Every placed device and the
 * map's gateways are drawn on one canvas, coloured by display state; a click opens the device panel, an
 * editor drags devices into place and drops outmap devices onto the plan. State changes arrive on the map's
 * one real-time topic.
 */
const NONE_PICKED: PlanSelection = new Set();
/** A phone: the room the selection's actions take along the bottom of the screen until they are measured. */
const SELECTION_SHEET_PX = 240;
/** The selection's margin above it and the card's padding below it. */
const SELECTION_GAP_PX = 16;

export default function DeviceControlPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: user } = useMe();
  const editable = userMay(user, 'write');
  const controllable = userMay(user, 'control');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [selectedId, setSelectedId] = useState<string>();
  const update = useUpdateMap();
  const [opacity, setOpacity] = useState<number>(PROJECT_LIMITS.opacity.default);
  const [filter, setFilter] = useState<PlanFilter>(SHOW_ALL);
  /** A device picked in the search box: the plan centres on it (a new object for each pick). */
  const [focus, setFocus] = useState<{ id: string }>();
  const phone = usePhone();
  const noHover = useNoHover();
  /** Names under every marker: the touch screen's stand-in for the names a mouse reads on hover. */
  const [namesShown, setNamesShown] = useState(false);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const [controlledGroup, setControlledGroup] = useState<string>();
  /** Select mode (taps and drags select) and the devices selected together, by taps, shift-clicks and lassos. */
  const [selecting, setSelecting] = useState(false);
  const [picked, setPicked] = useState<PlanSelection>(NONE_PICKED);
  const [selectionSheetPx, setSelectionSheetPx] = useState(SELECTION_SHEET_PX);
  /** The placing walk of a gateway just added (?mapId=&place=): its devices blink one by one and a tap places each. */
  const [params, setParams] = useSearchParams();
  const walkMapId = params.get(PLACING_PARAMS.map) ?? undefined;
  const walkGatewayId = params.get(PLACING_PARAMS.gateway) ?? undefined;

  // The path in force; a placing walk names its map.
  const { tree, fresh, path, options, choose } = useCurrentMapPath(walkMapId);

  const project = tree.data?.projects.find((p) => p.id === path?.[0]);
  const map = project?.builds.find((b) => b.id === path?.[1])?.maps.find((m) => m.id === path?.[2]);

  useEffect(() => {
    if (map) setOpacity(map.opacity);
  }, [map]);

  const mapId = map?.id;
  const markers = useMapMarkers(mapId);
  const gateways = useMapGateways(mapId);
  const mapGateways = useMemo(() => (mapId ? (gateways.data?.list ?? []).filter((g) => g.mapId === mapId) : []), [gateways.data, mapId]);
  const walkGateway = walkGatewayId ? mapGateways.find((g) => g.id === walkGatewayId) : undefined;
  const walk = usePlacingWalk(walkGateway ? mapId : undefined, walkGateway?.id);
  const placing = walkGateway !== undefined && editable;
  const endWalk = () => setParams({}, { replace: true });
  const positions = useDevicePositions();
  const gatewayPosition = useGatewayPosition();
  const moveIn = useMoveDevicesIn();
  const devicesReport = useDownload(() =>
    mapId ? projectApi.devicesReport(mapId, `${t('deviceMap.devicesReportFile')}.xlsx`) : Promise.resolve(),
  );
  // One subscription per map: every device change of the map arrives here as its new marker, and devices
  // that left the map (moved out, to another map, deleted) as {removed: [ids]}.
  // Group states follow their members: while a group is shown from the plan, a burst of reports refreshes it a few times at most.
  // The map whose topic the server has confirmed: from then on the plan hears every change (data-live).
  const [liveMapId, setLiveMapId] = useState<string>();
  const refreshGroups = useMemo(() => throttle(() => void queryClient.invalidateQueries({ queryKey: groupKeys.all }), 400), [queryClient]);
  useRealtime(
    mapId ? mapDestination(mapId) : undefined,
    (payload) => {
      if (mapId) applyMapMessage(queryClient, mapId, payload);
      if (groupsOpen || controlledGroup) refreshGroups();
    },
    // Markers read before the subscription was in place miss what was published meanwhile.
    () => {
      if (mapId) void queryClient.invalidateQueries({ queryKey: deviceMapKeys.markers(mapId) });
      refreshGroups();
      setLiveMapId(mapId);
    },
  );
  useEffect(() => {
    setSelectedId(undefined);
    setControlledGroup(undefined);
    setSelecting(false);
    setPicked(NONE_PICKED);
  }, [mapId]);
  // Virtual devices: stand-ins drawn as ghosts beside the real markers; one panel is open at a time.
  const virtual = useVirtualPlan(mapId);
  const selectVirtual = (id: string | undefined) => {
    setSelectedId(undefined);
    virtual.select(id);
  };
  const selected = markers.data?.find((m) => m.id === selectedId);
  const sheetOpen = phone && (selected !== undefined || virtual.selected !== undefined);
  const placedMarkers = useMemo(() => (markers.data ?? []).filter((m) => m.x !== null), [markers.data]);
  const shownMarkers = useMemo(() => placedMarkers.filter((m) => passesFilter(filter, m.type, m.display)), [placedMarkers, filter]);
  const shownGateways = filter.kinds.has('gateway') ? [] : mapGateways;
  // What the legend hides or the map lost leaves the selection: nothing unseen is switched.
  const shownIds = useMemo(() => new Set(shownMarkers.map((m) => m.id)), [shownMarkers]);
  const selection = useMemo(() => stillShown(picked, shownIds), [picked, shownIds]);
  const selectionShown = !placing && (selecting || selection.size > 0);
  /** A bar under the plan that a phone keeps at the bottom of the screen: the selection's or the walk's. */
  const barShown = selectionShown || placing;
  const searchOptions = useMemo(
    () =>
      placedMarkers
        .map((m) => ({ value: m.id, label: markerLabel(m.name), kind: t(`deviceControl.kinds.${markerKind(m.type)}`) }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [placedMarkers, t],
  );
  const find = (id: string) => {
    const marker = placedMarkers.find((m) => m.id === id);
    // A device the legend hides is shown again, so the plan can centre on it.
    if (marker && !passesFilter(filter, marker.type, marker.display)) setFilter(SHOW_ALL);
    setSelectedId(id);
    setFocus({ id });
  };

  const onSelect = (id: string, additive: boolean) => {
    // While placing, a tap anywhere on the plan is where the blinking device is, even beside another marker.
    if (placing) return;
    const gateway = mapGateways.find((g) => gatewayMarkerId(g.id) === id);
    if (selecting || additive) {
      if (!gateway) {
        setSelectedId(undefined);
        setPicked(toggled(selection, id));
      }
      return;
    }
    if (gateway) void navigate(`/gateway/detail?id=${gateway.id}`);
    else {
      virtual.select(undefined);
      setSelectedId(id);
    }
  };
  const onMove = (id: string, position: { x: number; y: number }) => {
    if (!mapId) return;
    const gatewayId = gatewayOfMarker(id);
    if (gatewayId) {
      gatewayPosition.mutate({ id: gatewayId, ...position });
      return;
    }
    positions.mutate(
      { mapId, devices: [{ id, ...position }] },
      // A refused move puts the marker back where the server has it.
      { onError: () => void markers.refetch() },
    );
  };
  const placeGateway = (gateway: { id: string; name: string }, position: { x: number; y: number }) =>
    gatewayPosition.mutate(
      { id: gateway.id, ...position },
      { onSuccess: () => void message.success(t('deviceControl.placed', { name: gateway.name })) },
    );
  const place = (device: Pick<GatewayDevice, 'id' | 'name'>, position: { x: number; y: number }) => {
    if (!mapId) return;
    moveIn.mutate(
      { mapId, devices: [{ id: device.id, ...position }] },
      { onSuccess: () => void message.success(t('deviceControl.placed', { name: device.name })) },
    );
  };

  const saveOpacity = async (value: number) => {
    if (!map || value === map.opacity) return;
    await update.mutateAsync({ id: map.id, opacity: value });
    void message.success(t('map.opacitySaved'));
  };

  const body = () => {
    if (!fresh && !tree.isError) return <Spin style={{ display: 'block', margin: '96px auto' }} />;
    if (!options.length || !path) {
      return <EmptyLead description={t('deviceMap.noMaps')} to="/project/list" action={t('deviceMap.goProjects')} />;
    }
    if (!map?.image) {
      return (
        <EmptyLead
          description={t('deviceMap.noImage')}
          to={`/project/detail?id=${path[0]}`}
          action={t('deviceMap.goUpload')}
          testId="device-map-no-image"
        />
      );
    }
    return (
      // The device panel opens inside this box, so the header (language, user menu) stays reachable.
      <div
        style={
          phone
            ? { display: 'flex', flexDirection: 'column', gap: 12 }
            : { display: 'flex', gap: 16, alignItems: 'flex-start', position: 'relative', minHeight: 560 }
        }
      >
        <div
          style={{ flex: 1, minWidth: 0, width: phone ? '100%' : undefined, position: 'relative' }}
          data-testid="device-plan"
          data-live={liveMapId !== undefined && liveMapId === mapId}
        >
          <FloorPlanMap
            imageUrl={map.image}
            opacity={opacity / 100}
            loadingText={t('deviceMap.loading')}
            errorText={t('deviceMap.failed')}
            fitText={t('deviceMap.fit')}
            // A phone: the plan takes the screen below the headers and the map selector.
            // While a device's bottom sheet is open, the plan shrinks to the part of the screen above it.
            style={
              phone
                ? {
                    height: sheetOpen
                      ? 'max(200px, calc(100dvh - 200px - 45dvh))'
                      : barShown
                        ? `max(200px, calc(100dvh - 200px - ${selectionSheetPx + SELECTION_GAP_PX}px))`
                        : 'calc(100dvh - 200px)',
                    minHeight: 200,
                  }
                : { height: 'calc(100vh - 330px)', minHeight: 420 }
            }
            onDropOnPlan={
              editable
                ? (latLng, data, size) => {
                    const name = data.getData('text/plain');
                    const deviceId = data.getData(OUTMAP_DRAG_TYPE);
                    const gatewayId = data.getData(GATEWAY_DRAG_TYPE);
                    if (deviceId) place({ id: deviceId, name: name || deviceId }, planToFraction(latLng, size));
                    else if (gatewayId) placeGateway({ id: gatewayId, name: name || gatewayId }, planToFraction(latLng, size));
                  }
                : undefined
            }
          >
            {(plan) => (
              <>
                <DeviceMarkerLayer
                  plan={plan}
                  markers={shownMarkers}
                  gateways={shownGateways}
                  selectedId={selectedId}
                  focus={focus}
                  editable={editable}
                  onSelect={onSelect}
                  onDeselect={() => setSelectedId(undefined)}
                  onMove={onMove}
                  namesAlways={namesShown}
                  marked={selection}
                  selecting={selecting && !placing}
                  onLasso={(ids) => {
                    setSelectedId(undefined);
                    setPicked(withAll(selection, ids));
                  }}
                />
                <VirtualMarkerLayer
                  plan={plan}
                  devices={virtual.placed}
                  selectedId={virtual.selectedId}
                  editable={editable}
                  label={t('virtualDevices.legend')}
                  onSelect={selectVirtual}
                  onMove={virtual.move}
                />
                {placing && <PlanTap plan={plan} onTap={walk.place} />}
                {/* Under a phone's bottom sheet the plan is small: the sheet has the screen, the buttons wait. */}
                {!sheetOpen && !placing && (
                  <PlanTools
                    namesToggle={phone || noHover}
                    namesShown={namesShown}
                    onNamesShown={setNamesShown}
                    onGroups={() => setGroupsOpen(true)}
                    selecting={selecting}
                    onSelecting={(on) => {
                      setSelecting(on);
                      if (on) setSelectedId(undefined);
                    }}
                  />
                )}
              </>
            )}
          </FloorPlanMap>
          <Suspense fallback={null}>
            {placing && walkGateway && (
              <PlacingWalkBar walk={walk} gatewayName={walkGateway.name} onEnd={endWalk} sheet={phone} onHeight={setSelectionSheetPx} />
            )}
            {selectionShown && (
              <PlanSelectionBar
                sheet={phone}
                onHeight={setSelectionSheetPx}
                mapId={map.id}
                projectId={map.projectId}
                selection={selection}
                markers={shownMarkers}
                gateways={mapGateways}
                canControl={controllable}
                canEdit={editable}
                onClear={() => setPicked(NONE_PICKED)}
                selecting={selecting}
                onDone={() => setSelecting(false)}
              />
            )}
          </Suspense>
          <MapLegend count={placedMarkers.length} shown={shownMarkers.length} filter={filter} onFilter={setFilter} />
        </div>
        {phone && tools(true)}
        <div style={{ width: phone ? '100%' : 300, flex: 'none' }}>
          <OutmapList
            mapId={map.id}
            gateways={mapGateways}
            canEdit={editable}
            onPlace={(device) => place(device, { x: 0.5, y: 0.5 })}
            onPlaceGateway={(gateway) => placeGateway(gateway, { x: 0.5, y: 0.5 })}
          />
          {path && (
            <VirtualDevicesCard
              path={path}
              devices={virtual.devices}
              canEdit={editable}
              selectedId={virtual.selectedId}
              onSelect={selectVirtual}
              onPlace={(device) => virtual.move(device.id, { x: 0.5, y: 0.5 })}
            />
          )}
        </div>
        <OnceOpened open={selected !== undefined}>
          <DevicePanel
            mapId={map.id}
            marker={selected}
            canControl={controllable}
            canEdit={editable}
            tree={tree.data}
            onClose={() => setSelectedId(undefined)}
          />
        </OnceOpened>
        <OnceOpened open={virtual.selected !== undefined}>
          <VirtualDevicePanel
            device={virtual.selected}
            projectId={map.projectId}
            canEdit={editable}
            onClose={() => virtual.select(undefined)}
          />
        </OnceOpened>
        <OnceOpened open={groupsOpen}>
          <PlanGroupsSheet
            mapId={groupsOpen ? map.id : undefined}
            onClose={() => setGroupsOpen(false)}
            onOpen={(id) => {
              setGroupsOpen(false);
              setSelectedId(undefined);
              setControlledGroup(id);
            }}
          />
        </OnceOpened>
        <OnceOpened open={controlledGroup !== undefined}>
          <GroupControlDrawer groupId={controlledGroup} canControl={controllable} onClose={() => setControlledGroup(undefined)} />
        </OnceOpened>
      </div>
    );
  };

  const reports = map?.image && (
    <Space wrap>
      <Link to={`/heatmap?mapId=${map.id}`} data-testid="device-map-heatmap">
        <Button icon={<FireOutlined />}>{t('heatmap.open')}</Button>
      </Link>
      <DownloadButton data-testid="device-map-report" download={devicesReport}>
        {t('deviceMap.devicesReport')}
      </DownloadButton>
    </Space>
  );

  /** Finding a device and the plan's opacity: above the plan on a desktop, below it on a phone (`below`). */
  const tools = (below: boolean) =>
    map?.image && (
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: below ? 12 : 16 }}>
        <Select
          showSearch
          allowClear
          value={null}
          style={{ width: below ? '100%' : 240 }}
          placeholder={t('deviceMap.find')}
          aria-label={t('deviceMap.find')}
          notFoundContent={t('deviceMap.findNone')}
          options={searchOptions}
          optionFilterProp="label"
          optionRender={(option) => (
            <Space style={{ width: '100%', justifyContent: 'space-between' }}>
              <span>{option.data.label}</span>
              <Text type="secondary" style={{ fontSize: 12 }}>
                {option.data.kind}
              </Text>
            </Space>
          )}
          onSelect={(id) => {
            if (id) find(id);
          }}
          data-testid="device-map-find"
        />
        <Space style={{ minWidth: below ? undefined : 280, width: below ? '100%' : undefined }}>
          <Text>{t('map.opacity')}</Text>
          <div style={{ width: below ? 'calc(100vw - 190px)' : 180 }} data-testid="device-map-opacity">
            <Slider
              min={PROJECT_LIMITS.opacity.min}
              max={PROJECT_LIMITS.opacity.max}
              value={opacity}
              onChange={setOpacity}
              // Everyone may look through the plan; only editors keep the setting on the map.
              onChangeComplete={(value) => {
                if (editable) void saveOpacity(value).catch(() => undefined);
              }}
              tooltip={{ formatter: (value) => `${value ?? 0}%` }}
              ariaLabelForHandle={t('map.opacity')}
            />
          </div>
          <Text type="secondary">{opacity}%</Text>
        </Space>
        {below && reports}
      </div>
    );

  return (
    <PageContainer
      // A phone: the breadcrumb names the page and the plan gets the room; the reports follow the plan.
      title={phone ? false : t('deviceMap.title')}
      extra={phone ? undefined : reports}
    >
      <Card variant="borderless" styles={{ body: { padding: phone ? 8 : 16 } }}>
        <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 16, marginBottom: phone ? 8 : 16 }}>
          <Space style={phone ? { width: '100%' } : undefined} styles={phone ? { item: { minWidth: 0 } } : undefined}>
            <Text>{t('deviceMap.select')}</Text>
            <Cascader
              style={phone ? { width: 'calc(100vw - 90px)' } : { width: 420, maxWidth: '70vw' }}
              options={options}
              value={path}
              allowClear={false}
              expandTrigger={phone ? 'click' : 'hover'}
              placeholder={t('deviceMap.selectPlaceholder')}
              aria-label={t('deviceMap.select')}
              showSearch={{
                filter: (input, chain) => chain.some((option) => String(option.label).toLowerCase().includes(input.toLowerCase())),
              }}
              onChange={choose}
              data-testid="map-selector"
            />
          </Space>
          {!phone && tools(false)}
        </div>
        {body()}
      </Card>
    </PageContainer>
  );
}
