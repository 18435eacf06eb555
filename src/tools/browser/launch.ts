import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";

/** The system Chromium (Debian package `chromium`); playwright-core never downloads a browser. */
export const CHROMIUM_PATH = process.env.RELIVE_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Launch flags. Besides the headless basics, three layers keep every request on the machine even
 * if something escaped the context's route interception: every host name resolves to NOTFOUND
 * locally (no DNS query leaves), every connection goes to a proxy on a closed loopback port (also
 * for loopback addresses), and WebRTC may not use non-proxied UDP.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-domain-reliability",
  "--no-pings",
  "--dns-prefetch-disable",
  "--host-resolver-rules=MAP * ~NOTFOUND",
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/** Why the browser cannot run here (null when it can): tests skip with this message. */
export function chromiumMissing(path: string = CHROMIUM_PATH): string | null {
  return existsSync(path)
    ? null
    : `Chromium not found at ${path} (install the Debian package chromium or set RELIVE_CHROMIUM)`;
}

/** Launch one headless Chromium with a fresh temporary profile. */
export async function launchChromium(path: string = CHROMIUM_PATH): Promise<Browser> {
  const missing = chromiumMissing(path);
  if (missing) throw new Error(missing);
  // loaded on first use: every CLI start would otherwise pay for playwright-core
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: path, args: [...CHROMIUM_ARGS], headless: true });
}
