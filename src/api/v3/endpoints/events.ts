/**
 * `/api/v3/events`: toncenter's older name of /traces (ton-index-go routes it to the same handler), with the actions
 * always included and the list under `events`.
 */
import { defineEndpoint, ref } from '../endpoint.js';
import { JsonText } from '../../json-text.js';
import { traces } from './traces.js';

export const events = defineEndpoint({
  ...traces,
  path: '/events',
  summary: "Traces with their actions, under `events` (toncenter's older name of /traces?include_actions=true)",
  response: ref('EventsResponse'),
  async handle(p, network) {
    const answer = (await traces.handle({ ...p, include_actions: true }, network)) as JsonText;
    // The page is written as text with `traces` as its first key (format/traces.ts).
    return new JsonText(`{"events":${answer.text.slice('{"traces":'.length)}`);
  },
});
