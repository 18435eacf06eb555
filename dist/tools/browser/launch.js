import { existsSync } from "node:fs";
const CHROMIUM_PATH = process.env.RELIVE_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
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
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp"
];
function chromiumMissing(path = CHROMIUM_PATH) {
  return existsSync(path) ? null : `Chromium not found at ${path} (install the Debian package chromium or set RELIVE_CHROMIUM)`;
}
async function launchChromium(path = CHROMIUM_PATH) {
  const missing = chromiumMissing(path);
  if (missing) throw new Error(missing);
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: path, args: [...CHROMIUM_ARGS], headless: true });
}
export {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  chromiumMissing,
  launchChromium
};
//# sourceMappingURL=launch.js.map
