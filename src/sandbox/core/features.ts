// Optional line features: Wi-Fi Calling with its E911 address, voicemail password and
// language, and device location cancellation.

import type {
  AddWfcRequest,
  LineRef,
  MdnWrite,
  ResetVoicemailRequest,
  SetVoicemailLanguageRequest,
  UpdateE911Request,
} from '../../carriers/types.js';
import { requireLine, verifySim } from './lines.js';
import { reject } from './rejections.js';
import type { CoreContext } from './state.js';
import { recordActivity } from './usage-records.js';
import { enableWfc, validateE911Address } from './wfc.js';

export function addWfc(ctx: CoreContext, request: AddWfcRequest): LineRef {
  const line = requireLine(ctx, request.mdn);
  verifySim(line, request.sim, 'GENS-0170');
  if (line.wfc.enabled) reject('GENS-0010');
  if (!validateE911Address(request.address).valid) reject('GENS-0090');
  enableWfc(ctx, line, request.address);
  recordActivity(ctx, line);
  return { mdn: line.mdn, sim: line.sim };
}

export function updateE911Address(ctx: CoreContext, request: UpdateE911Request): LineRef {
  const line = requireLine(ctx, request.mdn);
  verifySim(line, request.sim, 'GENS-0404');
  if (!line.wfc.enabled) reject('GENS-0124');
  if (!validateE911Address(request.address).valid) reject('GENS-0090');
  enableWfc(ctx, line, request.address);
  recordActivity(ctx, line);
  return { mdn: line.mdn, sim: line.sim };
}

export function resetVoicemailPassword(ctx: CoreContext, request: ResetVoicemailRequest): void {
  const line = requireLine(ctx, request.mdn);
  verifySim(line, request.sim, 'GENS-0149');
  line.voicemailResetAt = ctx.clock.now();
  recordActivity(ctx, line);
}

export function setVoicemailLanguage(ctx: CoreContext, request: SetVoicemailLanguageRequest): void {
  const line = requireLine(ctx, request.mdn);
  line.language = request.language;
  recordActivity(ctx, line);
}

export function cancelDeviceLocation(ctx: CoreContext, request: MdnWrite): void {
  const line = requireLine(ctx, request.mdn);
  line.deviceLocationCancelledAt = ctx.clock.now();
  recordActivity(ctx, line);
}
