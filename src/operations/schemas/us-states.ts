// The two-letter codes USPS gives US states and the places US addresses name as a state: the
// District of Columbia, the territories, the freely associated states and the armed forces'
// post offices. The spec's `state` fields are "2-letter US state code"s, and E911 addresses
// (WFC) must be deliverable ones: two letters that name nothing ("ZZ") are refused with the
// spec's 422 before anything reaches a carrier.

const STATES =
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO ' +
  'MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY';
const DISTRICT_AND_TERRITORIES = 'DC AS GU MP PR VI';
const FREELY_ASSOCIATED_STATES = 'FM MH PW';
const ARMED_FORCES = 'AA AE AP';

export const US_STATE_CODES: ReadonlySet<string> = new Set(
  [STATES, DISTRICT_AND_TERRITORIES, FREELY_ASSOCIATED_STATES, ARMED_FORCES].join(' ').split(' '),
);
