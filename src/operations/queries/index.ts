// Information queries (all GET, 60/min): line records (usage, service, raw usage, network
// status), coverage, devices and SIMs.

import { getCarrierUsage } from './carrier-usage.js';
import { getCoverage } from './coverage.js';
import { getDeviceCompatibility } from './device-compatibility.js';
import { getEsimProfile } from './esim-profile.js';
import { getNetworkStatus } from './network-status.js';
import { getQuickCoverage } from './quick-coverage.js';
import { getServiceInfo } from './service-info.js';
import { getSimDetails } from './sim-details.js';
import { getUsage } from './usage.js';

export const queryOperations = [
  getUsage,
  getServiceInfo,
  getCarrierUsage,
  getCoverage,
  getQuickCoverage,
  getDeviceCompatibility,
  getNetworkStatus,
  getEsimProfile,
  getSimDetails,
];
