// Seeded customer-impacting events (network outages and maintenance) for the extended CIM
// query, placed around the moment the sandbox state was created.

import type { CustomerImpactingEvent } from '../../carriers/types.js';
import { carrierTimestamp, DAY_MS } from './time-format.js';

const HOUR_MS = 3_600_000;

export function seedEvents(epoch: number): CustomerImpactingEvent[] {
  const event = (
    eventId: string,
    category: string,
    description: string,
    zipCodes: string[],
    start: number,
    durationMs: number | null,
  ): CustomerImpactingEvent => ({
    eventId,
    category,
    description,
    zipCodes,
    startTime: carrierTimestamp(start),
    endTime: durationMs === null ? null : carrierTimestamp(start + durationMs),
  });
  return [
    event(
      'CIM-0001',
      'NETWORK_OUTAGE',
      'Fiber cut affecting LTE and 5G service',
      ['10001', '10002'],
      epoch - 10 * DAY_MS,
      6 * HOUR_MS,
    ),
    event('CIM-0002', 'MAINTENANCE', 'Planned core network maintenance', ['90210'], epoch - 3 * DAY_MS, 4 * HOUR_MS),
    event('CIM-0003', 'DEGRADED_SERVICE', 'Intermittent data slowness', ['60601', '60602'], epoch - DAY_MS, null),
    event('CIM-0004', 'MAINTENANCE', 'Planned radio upgrade', ['73301'], epoch + 2 * DAY_MS, 2 * HOUR_MS),
  ];
}
