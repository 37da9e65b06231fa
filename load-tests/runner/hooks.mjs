// Module resolution for k6 scripts run in Node: `k6` and `k6/http` resolve to this runner's
// implementations; any other `k6/...` module is refused with a clear message instead of a confusing
// "package not found".
const SHIMS = {
  k6: new URL('./k6/k6.mjs', import.meta.url).href,
  'k6/http': new URL('./k6/http.mjs', import.meta.url).href,
};

export async function resolve(specifier, context, nextResolve) {
  if (Object.hasOwn(SHIMS, specifier)) return { url: SHIMS[specifier], shortCircuit: true };
  if (specifier.startsWith('k6/')) {
    throw new Error(`${specifier} is not part of the k6 API the Node runner implements (k6, k6/http); run this script with a real k6.`);
  }
  return nextResolve(specifier, context);
}
