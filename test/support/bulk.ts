// The REST bulk activation answer (POST /sim/activate/bulk/), as the spec shapes it: one entry
// per SIM in request order, `error` on failures only, `warning` and `wfc_status` on a WFC warning.

export interface RestBulkEntry {
  sim: string;
  status: string;
  transaction_id: string;
  mdn?: string;
  message: string;
  error?: string[];
  warning?: string;
  wfc_status?: boolean;
}

export interface RestBulkAnswer {
  results: RestBulkEntry[];
  total: number;
  processed: number;
}
