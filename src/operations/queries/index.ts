// Information queries (all GET, 60/min): line records (usage, service, raw usage, network
// status), coverage, devices and SIMs.

import { carrierUsage } from './carrier-usage.js';
import { coverage } from './coverage.js';
import { deviceCompatibility } from './device-compatibility.js';
import { esimProfile } from './esim-profile.js';
import { networkStatus } from './network-status.js';
import { quickCoverage } from './quick-coverage.js';
import { serviceInfo } from './service-info.js';
import { simDetails } from './sim-details.js';
import { usage } from './usage.js';

export const queryOperations = [
  usage,
  serviceInfo,
  carrierUsage,
  coverage,
  quickCoverage,
  deviceCompatibility,
  networkStatus,
  esimProfile,
  simDetails,
];
