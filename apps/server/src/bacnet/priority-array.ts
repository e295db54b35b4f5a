/** BACnet's command priorities: 1 (manual life safety) is the highest, 16 the lowest; 8 is manual operator. */
export const PRIORITIES = 16;

/**
 * The priority array of one commandable object (ASHRAE 135 clause 19.2): a write at a priority fills its slot,
 * writing NULL relinquishes it, and the value in force is the one of the highest filled priority.
 */
export class PriorityArray {
  readonly slots: Array<number | null> = new Array<number | null>(PRIORITIES).fill(null);

  /** The value in force and its priority, or undefined when every slot is relinquished. */
  inForce(): { value: number; priority: number } | undefined {
    const index = this.slots.findIndex((v) => v !== null);
    return index < 0 ? undefined : { value: this.slots[index]!, priority: index + 1 };
  }

  /**
   * Sets or relinquishes (null) a slot. Answers the value to command the lights with: the written one when its
   * priority is now in force (again, even when unchanged, since the lights may have been set otherwise since),
   * the next one down when the slot in force was relinquished, none otherwise (a lower priority, or nothing left).
   */
  write(priority: number, value: number | null): number | undefined {
    const before = this.inForce();
    this.slots[priority - 1] = value;
    const after = this.inForce();
    if (!after) return undefined;
    if (value !== null) return after.priority === priority ? after.value : undefined;
    return before?.priority === priority ? after.value : undefined;
  }

  isEmpty(): boolean {
    return this.slots.every((v) => v === null);
  }
}
