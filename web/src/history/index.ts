export { HistoryDrawer } from './HistoryDrawer';
export { RecordHistory } from './RecordHistory';
