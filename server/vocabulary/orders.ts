// A store's order as the core keeps it for the claims console: its lines and its town-level destination (the Shopify
// app records them with its orders; the console reads them with a claim), and the platform's own risk assessment of
// it (a claim's risk weighs it).

/** One line of a store's order as the claims console shows it. */
export interface OrderLine {
  title: string;
  quantity: number;
  unitPriceCents: number;
}

/** Where an order was shipped, to the town only: no name, street or phone is kept. */
export interface ShipTo {
  city: string | null;
  region: string | null;
  postalCode: string | null;
  countryCode: string | null;
}

/** A store platform's own risk assessment of an order (on Shopify, the order's risk), as its app last read it. */
export interface OrderRisk {
  /** The highest level among the order's assessments (the platform's own and fraud apps'). */
  level: "high" | "medium" | "low" | "none" | "pending";
  /** What the platform recommends doing with the order. */
  recommendation: "accept" | "investigate" | "cancel" | "none";
  /** What the assessments at that level say against the order, in the platform's words. */
  reasons: string[];
}
