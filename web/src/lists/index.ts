/**
 * The portal's list conventions, shared by every list screen: one toolbar (search, filters, sort on
 * phones, Export, create, bulk actions), one empty state, sortable headers, pagination with a page
 * size, relative dates with the exact time on hover and e-mail addresses that never break.
 */
export { CsvExportButton } from './CsvExportButton';
export { csvRows, csvSafe, exportCsv, fetchAllRows, MAX_EXPORT_ROWS, type CsvColumn, type CsvExport } from './csvExport';
export { DateText, RelativeDateField } from './DateText';
export { EmailText, EmailTextField } from './EmailText';
export { EmptyState } from './EmptyState';
export { nextSort, PAGE_SIZE_CHOICES, PAGED_ROWS_LIMIT, useListControls, type ListControls, type ListSort, type SortOrder } from './listControls';
export { ListPagination } from './ListPagination';
export { BulkBar, ListToolbar, usePhoneFilters, type ListSearch, type ListSortChoice } from './ListToolbar';
export { ColumnChooser, useColumnChoice, type ColumnChoice } from './ColumnChooser';
export { SavedFilters, type SavedFilter } from './SavedFilters';
export { BulkReviewDialog, type BulkOutcome, type BulkDecision } from './BulkReviewDialog';
export { BulkReviewBar, BulkReviewButtons } from './BulkReviewBar';
export { useDialogAction, type DialogAction } from './useDialogAction';
export { useUserStore } from './userStore';
export { exactTime, relativeTime } from './relativeTime';
export { hiddenBelow, RecordTable, type RecordColumn, type RecordTableProps } from './RecordTable';
export { FilteredListTable, type EmptyTexts, type FilteredListState } from './FilteredListTable';
export { useDeleteDialog } from './useDeleteDialog';
export { alphabetical, NEWEST_FIRST, OLDEST_FIRST } from './sortChoices';
export { RowAction, RowActions } from './RowAction';
export { SearchField } from './SearchField';
export { SelectFilter, type FilterChoice } from './SelectFilter';
export { SelectAllCell, SelectRowBox, SelectRowCell, useSelection, type Selection } from './selection';
export { useFilteredList, type FilteredList } from './useFilteredList';
export { FilteredListToolbar, type ListFilter } from './FilteredListToolbar';
export { PlainHeader, SortableHeader } from './SortableHeader';
export { LoadError, Loading } from '../layout/ListStates';
