import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const ProjectList = lazy(() => import('./ProjectList'));
const ProjectShow = lazy(() => import('./ProjectShow'));

/** The project screens. */
export const projectScreens: Screen[] = [
  { path: '/projects', element: <ProjectList /> },
  { path: '/project/details', element: <ProjectShow /> },
];
