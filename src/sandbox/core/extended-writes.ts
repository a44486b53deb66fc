// The extended (carrier 321) writes: SMS to a subscriber, allow/block phone lists, line
// labels and device (IMEI) changes.

import type {
  ChangeImeiRequest,
  PhoneList,
  PhoneListRequest,
  SendSmsRequest,
  SetLabelRequest,
} from '../../carriers/types.js';
import { requireKnownDevice } from './devices.js';
import { requireActiveLine, requireLine, verifySim } from './lines.js';
import { reject } from './rejections.js';
import { sequenceId, type CoreContext } from './state.js';
import { recordActivity } from './usage-records.js';

export const SMS_MAX_LENGTH = 160;
export const LABEL_MAX_LENGTH = 100;
const PHONE_NUMBER = /^\+?\d{10,15}$/;

/**
 * Characters as the spec counts them (and the original service did, and the gateway's zod
 * limits do): code points, so an emoji is one character, not its two UTF-16 units.
 */
const characters = (text: string) => [...text].length;

/** Sent messages remembered per line (the most recent). */
const MESSAGES_KEPT = 100;

export function sendSms(ctx: CoreContext, request: SendSmsRequest): { mdn: string; messageId: string } {
  const line = requireActiveLine(ctx, request.mdn);
  if (request.message.length === 0 || characters(request.message) > SMS_MAX_LENGTH) {
    reject('GENS-0404', `Invalid request parameter: message must be 1 to ${SMS_MAX_LENGTH} characters`);
  }
  const messageId = sequenceId('SMS', ++ctx.state.counters.message);
  line.messages.push({ messageId, text: request.message, sentAt: ctx.clock.now() });
  if (line.messages.length > MESSAGES_KEPT) line.messages.shift();
  return { mdn: line.mdn, messageId };
}

export function managePhoneList(ctx: CoreContext, request: PhoneListRequest): PhoneList {
  const line = requireLine(ctx, request.mdn);
  const invalid = request.numbers.find((number) => !PHONE_NUMBER.test(number));
  if (invalid !== undefined) reject('GENS-0404', `Invalid request parameter: ${invalid} is not a phone number`);
  const { allowed, blocked } = line.phoneList;
  const without = (list: string[]): string[] => list.filter((number) => !request.numbers.includes(number));
  const union = (list: string[]): string[] => [...new Set([...list, ...request.numbers])];
  switch (request.action) {
    case 'add':
      line.phoneList = { allowed: union(allowed), blocked: without(blocked) };
      break;
    case 'remove':
      line.phoneList = { allowed: without(allowed), blocked };
      break;
    case 'block':
      line.phoneList = { allowed: without(allowed), blocked: union(blocked) };
      break;
    case 'unblock':
      line.phoneList = { allowed, blocked: without(blocked) };
      break;
  }
  recordActivity(ctx, line);
  return { mdn: line.mdn, allowed: [...line.phoneList.allowed], blocked: [...line.phoneList.blocked] };
}

export function setLabel(ctx: CoreContext, request: SetLabelRequest): { mdn: string; label: string } {
  const line = requireLine(ctx, request.mdn);
  if (characters(request.label) > LABEL_MAX_LENGTH)
    reject('GENS-0404', `Invalid request parameter: label must be at most ${LABEL_MAX_LENGTH} characters`);
  line.label = request.label;
  return { mdn: line.mdn, label: request.label };
}

export function changeImei(ctx: CoreContext, request: ChangeImeiRequest): { mdn: string; sim: string; imei: string } {
  const line = requireLine(ctx, request.mdn);
  verifySim(line, request.sim, 'GENS-0012');
  requireKnownDevice(request.newImei);
  if (request.newImei !== line.imei) {
    line.imei = request.newImei;
    line.imeiSince = ctx.clock.now();
  }
  recordActivity(ctx, line);
  return { mdn: line.mdn, sim: line.sim, imei: line.imei };
}
