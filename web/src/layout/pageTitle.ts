import { useEffect } from 'react';

export const APP_NAME = 'PartnerHub';

/** Sets the browser page title for the current screen. Free of react-admin, so the signed-out screens can use it. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} | ${APP_NAME}` : APP_NAME;
  }, [title]);
}
