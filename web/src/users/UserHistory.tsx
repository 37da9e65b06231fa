import { HistoryDrawer } from '../history';
import type { UserRecord } from './userRules';

/** The History panel: every version of the account, who changed what and when, and the account as of any version. */
export function UserHistory({ record, onClose }: { record: UserRecord | null; onClose: () => void }) {
  return <HistoryDrawer path="/users" record={record ? { id: record.id, name: record.full_name } : null} onClose={onClose} />;
}
