// A store's order as the core keeps it for the claims console: its lines and its town-level destination (the Shopify
// app records them with its orders; the console reads them with a claim).

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
