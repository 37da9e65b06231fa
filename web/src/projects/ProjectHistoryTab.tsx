import { RecordHistory } from '../history';

/** Every status, registration, extension and content change of the project, who and why. */
export function HistoryTab({ projectId }: { projectId: string }) {
  return <RecordHistory path="/projects" id={projectId} />;
}
