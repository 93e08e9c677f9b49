// The app's order metafield definitions that exist on the shop (their keys), so install creates only missing ones.
import { adminOperation } from "./graphql.ts";

export interface OrderMetafieldDefinitionsResult {
  metafieldDefinitions: { nodes: { key: string }[] };
}

export const orderMetafieldDefinitions = adminOperation<{ namespace: string }, OrderMetafieldDefinitionsResult>(
  `query OrderMetafieldDefinitions($namespace: String!) {
    metafieldDefinitions(first: 50, ownerType: ORDER, namespace: $namespace) { nodes { key } }
  }`,
);
