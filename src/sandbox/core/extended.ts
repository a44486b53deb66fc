// The extended operations object a carrier-321-style sandbox exposes as `core.extended`;
// writes among them de-duplicate by transaction id like every other write.

import type {
  ChangeImeiRequest,
  ExtendedCarrierOperations,
  PhoneListRequest,
  SendSmsRequest,
  SetLabelRequest,
  AddressToValidate,
} from '../../carriers/types.js';
import { imeiDetails } from './devices.js';
import { numberGroupsFor } from './coverage.js';
import * as reads from './extended-queries.js';
import * as writes from './extended-writes.js';
import { once } from './replay.js';
import type { CoreContext } from './state.js';

export class SandboxExtendedOperations implements ExtendedCarrierOperations {
  constructor(private readonly ctx: CoreContext) {}

  async listAvailablePlans() {
    return reads.listAvailablePlans();
  }

  async validateAddress(address: AddressToValidate) {
    return reads.validateAddress(address);
  }

  async getDeviceUnlockStatus(imei: string) {
    return reads.getDeviceUnlockStatus(this.ctx, imei);
  }

  async getAccount(mdn: string) {
    return reads.getAccount(this.ctx, mdn);
  }

  async getPoolUsage(accountId: string) {
    return reads.getPoolUsage(this.ctx, accountId);
  }

  async getNumberGroups(zipCode: string) {
    return numberGroupsFor(this.ctx.carrier, zipCode);
  }

  async getActivePlan(mdn: string) {
    return reads.getActivePlan(this.ctx, mdn);
  }

  async getImeiDetails(imei: string) {
    return imeiDetails(imei);
  }

  async getProducts(mdn: string) {
    return reads.getProducts(this.ctx, mdn);
  }

  async getCustomerImpactingEvents(window: { startTime?: string; endTime?: string }) {
    return reads.getCustomerImpactingEvents(this.ctx, window);
  }

  async sendSms(request: SendSmsRequest) {
    return once(this.ctx, 'sendSms', request.transactionId, () => writes.sendSms(this.ctx, request));
  }

  async managePhoneList(request: PhoneListRequest) {
    return once(this.ctx, 'managePhoneList', request.transactionId, () => writes.managePhoneList(this.ctx, request));
  }

  async setLabel(request: SetLabelRequest) {
    return once(this.ctx, 'setLabel', request.transactionId, () => writes.setLabel(this.ctx, request));
  }

  async changeImei(request: ChangeImeiRequest) {
    return once(this.ctx, 'changeImei', request.transactionId, () => writes.changeImei(this.ctx, request));
  }
}
