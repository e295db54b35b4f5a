import { LIVE_TOPICS } from '@lumigrid/contract';
import { Compile } from 'typebox/compile';
import { compilePattern } from './destinations.ts';

/**
 * Checks a message against the live topic table of the contract: answers what is wrong with it (a destination no
 * topic has, or a payload its schema refuses), or undefined. The server's test harness runs every publish through
 * it, so a payload that drifts from what the browser is told to expect fails the suite that published it.
 */
export function createLiveMessageCheck(): (destination: string, payload: unknown) => string | undefined {
  const topics = Object.entries(LIVE_TOPICS).map(([name, topic]) => ({
    name,
    regex: compilePattern(topic.pattern).regex,
    validator: Compile(topic.message),
  }));
  return (destination, payload) => {
    const topic = topics.find((t) => t.regex.test(destination));
    if (!topic) return `${destination}: no live topic of the contract has this destination`;
    if (topic.validator.Check(payload)) return undefined;
    for (const error of topic.validator.Errors(payload))
      return `${destination} (${topic.name}): ${error.instancePath || '/'} ${error.message}`;
    return `${destination} (${topic.name}): refused by its schema`;
  };
}
