import { shopifyEmailLanguageSuite } from "./shopify-email-language-flows.ts";

shopifyEmailLanguageSuite("postgres");
