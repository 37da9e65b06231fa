import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './Root';
import { restoreSession } from './providers/authProvider';

// After a new release the old screen chunks are gone: reload once to get the new build instead of
// showing an error.
const RELOADED_AT = 'reloaded-for-new-build';
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
  if (Date.now() - last > 10_000) {
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    event.preventDefault();
    window.location.reload();
  }
});

// Permissions are restored (or fetched) while the splash shows.
void restoreSession();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
