import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const OrganisationApiKeysPage = lazy(() => import('./OrganisationApiKeysPage'));

/** The organisation owners' API keys page. */
export const apiKeyScreens: Screen[] = [{ path: '/api-keys', element: <OrganisationApiKeysPage />, guard: { title: 'API Keys' } }];
