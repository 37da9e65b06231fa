import { HistoryDrawer } from '../history';
import type { UserView } from '@contracts/identity';

/** The History panel: every version of the account, who changed what and when, and the account as of any version. */
export function UserHistory({ record, onClose }: { record: UserView | null; onClose: () => void }) {
  return <HistoryDrawer path="/users" record={record ? { id: record.id, name: record.full_name } : null} onClose={onClose} />;
}
