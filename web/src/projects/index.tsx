import AssignmentIcon from '@mui/icons-material/Assignment';
import { lazy } from 'react';
import { Route } from 'react-router-dom';
import type { ProjectRecord } from './projectsApi';

const ProjectList = lazy(() => import('./ProjectList'));
const ProjectShow = lazy(() => import('./ProjectShow'));

/** The projects resource: its list screen and how a record is named. */
const projects = {
  list: ProjectList,
  show: ProjectShow,
  icon: AssignmentIcon,
  recordRepresentation: (record: ProjectRecord) => record.title,
};
export default projects;

/** The project screens, mounted among the app's custom routes. */
export const projectRoutes = [
  <Route key="projects" path="/projects" element={<ProjectList />} />,
  <Route key="project-details" path="/project/details" element={<ProjectShow />} />,
];
