// Tables of the service spec (Endpoints) that several tests check the gateway against.

/** The generated transaction id prefix of every mutating endpoint, by path. */
export const SPEC_PREFIXES: Record<string, string> = {
  '/sim/wfc/add/': 'ADD_WFC_',
  '/sim/wfc/address/': 'UPD_WFC_ADDR_',
  '/sim/voicemail/reset/': 'VM_RESET_',
  '/sim/voicemail/language/': 'VM_LANG_',
  '/sim/device-location/cancel/': 'CANCEL_LOC_',
  '/sim/suspend/': 'SUSPEND_',
  '/sim/restore/': 'RESTORE_',
  '/sim/disconnect/': 'DISCONNECT_',
  '/sim/reconnect/': 'RECONNECT_',
  '/sim/swap/': 'SWAP_',
  '/sim/mdn/swap/': 'SWAP_MDN_',
  '/sim/balance/adjust/': 'ADJ_BAL_',
  '/sim/balance/adjust-multiple/': 'ADJ_MULTI_BAL_',
  '/sim/line/add/': 'ADD_LINE_',
  '/sim/line/remove/': 'REM_LINE_',
  '/sim/plan/change/': 'PLAN_CHANGE_',
  '/sim/plan/purchase/': 'PURCHASE_',
  '/sim/plan/cancel/': 'CANCEL_',
  '/sim/billing-code/change/': 'CHG_BILL_',
  '/sim/activate/': 'ACT_',
};
