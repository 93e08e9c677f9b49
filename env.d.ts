/// <reference types="vite/client" />
/// <reference types="@remix-run/node" />
