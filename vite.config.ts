import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import remixConfig from "./remix.config.js";
import { pageChunks } from "./vite.chunks";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  server: { hmr: { port: 24678 } },
  plugins: [remix(remixConfig), pageChunks()],
});
