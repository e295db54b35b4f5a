import type { GroupView } from '@lumigrid/contract/browser';

/** The notes a group state may carry. */
export type GroupNoteKey = 'groups.gatewayOffline' | 'groups.offlineMembers' | 'groups.failureMembers';

/** What the state column says about a group, as catalogue keys with their values, most telling first. */
export function groupStateNotes(
  group: Pick<GroupView, 'gatewayOnline' | 'offlineCount' | 'failureCount' | 'deviceIds'>,
): Array<{ key: GroupNoteKey; count?: number }> {
  const notes: Array<{ key: GroupNoteKey; count?: number }> = [];
  if (!group.gatewayOnline) notes.push({ key: 'groups.gatewayOffline' });
  else if (group.offlineCount > 0) notes.push({ key: 'groups.offlineMembers', count: group.offlineCount });
  if (group.failureCount > 0) notes.push({ key: 'groups.failureMembers', count: group.failureCount });
  return notes;
}

/**
 * Calls `run` at most once per `ms` while calls keep coming, and once more after the last: a burst of member
 * reports (a group switched off) refreshes the group screen a few times, not once per member.
 */
export function throttle(run: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending = false;
  return () => {
    if (timer) {
      pending = true;
      return;
    }
    run();
    const tick = () => {
      if (pending) {
        pending = false;
        run();
        timer = setTimeout(tick, ms);
      } else timer = undefined;
    };
    timer = setTimeout(tick, ms);
  };
}
