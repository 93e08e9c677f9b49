// The bodies of Shopify's mandatory privacy (compliance) topics, as documented under "Privacy law compliance".

export interface PrivacyCustomer {
  id: number;
  email: string | null;
  phone: string | null;
}

export interface CustomersDataRequest {
  shop_id: number;
  shop_domain: string;
  orders_requested: number[];
  customer: PrivacyCustomer;
  data_request: { id: number };
}

export interface CustomersRedact {
  shop_id: number;
  shop_domain: string;
  customer: PrivacyCustomer;
  orders_to_redact: number[];
}

export interface ShopRedact {
  shop_id: number;
  shop_domain: string;
}
