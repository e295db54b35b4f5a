import { useCallback, useEffect, useMemo, useState } from 'react';
import type { GatewayDevice } from '@lumigrid/contract/browser';
import { ApiError } from '../../api/client.ts';
import { useOutmapDevices } from '../gateways/api.ts';
import { useIdentifyDevice, useMoveDevicesIn } from './api.ts';
import { NEW_WALK, afterPlaced, afterSkipped, placingStep, type PlacingStep, type PlacingWalkState } from './placing-walk.ts';

export interface PlacingWalk extends PlacingStep<GatewayDevice> {
  /** The gateway's outmap list is still being read. */
  loading: boolean;
  /** Places the current device at fractions of the plan's width and height; the next one blinks. */
  place: (position: { x: number; y: number }) => void;
  skip: () => void;
  /** Makes the current device blink again (a device blinks for a few seconds). */
  blink: () => void;
  /** Why the current device could not be made to blink, in the server's words (it can still be placed). */
  blinkProblem: string | undefined;
  placing: boolean;
}

/** The walk through a gateway's devices on no map (placing-walk.ts): the current one blinks, a tap places it. */
export function usePlacingWalk(mapId: string | undefined, gatewayId: string | undefined): PlacingWalk {
  const outmap = useOutmapDevices(mapId, gatewayId);
  const [walk, setWalk] = useState<PlacingWalkState>(NEW_WALK);
  const [blinkProblem, setBlinkProblem] = useState<string>();
  const moveIn = useMoveDevicesIn();
  const identify = useIdentifyDevice();
  const step = useMemo(() => placingStep(outmap.data ?? [], walk), [outmap.data, walk]);
  const currentId = step.current?.id;

  useEffect(() => setWalk(NEW_WALK), [mapId, gatewayId]);

  const { mutate: identifyDevice } = identify;
  const blinkNow = useCallback(
    (id: string) => {
      setBlinkProblem(undefined);
      identifyDevice(id, { onError: (error) => setBlinkProblem(error instanceof ApiError ? error.message : String(error)) });
    },
    [identifyDevice],
  );
  useEffect(() => {
    if (currentId) blinkNow(currentId);
  }, [currentId, blinkNow]);

  return {
    ...step,
    loading: outmap.isPending,
    placing: moveIn.isPending,
    blinkProblem,
    blink: () => {
      if (currentId) blinkNow(currentId);
    },
    skip: () => {
      if (currentId) setWalk((w) => afterSkipped(w, currentId));
    },
    place: (position) => {
      if (!mapId || !currentId) return;
      setWalk((w) => afterPlaced(w, currentId));
      moveIn.mutate(
        { mapId, devices: [{ id: currentId, ...position }] },
        // Refused (the server said why): the device is the one to place again.
        { onError: () => setWalk((w) => ({ ...w, placed: new Set([...w.placed].filter((id) => id !== currentId)) })) },
      );
    },
  };
}
