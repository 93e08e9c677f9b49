import { pathSegment, type Transport } from "../request.ts";
import type { MerchantMetrics } from "../responses.ts";
import type { MetricsQuery } from "../types.ts";

/** /merchants/{merchantId}/…: the key's own merchant (any other id is 404). */
export class Merchants {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Quote, plan, claim and fee figures, optionally within [from, to), and `analytics`: per currency, the period's
   * figures (attach rates, fees, claim and approval rates, loss ratio, …) against the previous period, with a series.
   */
  async metrics(merchantId: string, query: MetricsQuery = {}): Promise<MerchantMetrics> {
    return this.#transport.body({
      method: "GET",
      path: `/merchants/${pathSegment("merchantId", merchantId)}/metrics`,
      query,
    });
  }

  /**
   * GET /merchants/{id}/metrics.csv: the analytics' series as CSV text (one row per currency and day, week or month;
   * the columns of docs/api.md "Analytics"), for the same query as `metrics`.
   */
  async metricsCsv(merchantId: string, query: MetricsQuery = {}): Promise<string> {
    return this.#transport.text({
      method: "GET",
      path: `/merchants/${pathSegment("merchantId", merchantId)}/metrics.csv`,
      query,
      accept: "text/csv",
    });
  }
}
