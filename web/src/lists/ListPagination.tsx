import { TablePagination } from '@mui/material';
import { PAGE_SIZE_CHOICES, type ListControls } from './listControls';

/** Pages and page size under a list; hidden while everything fits on one page of the smallest size. */
export function ListPagination({ total, controls }: { total: number | undefined; controls: ListControls }) {
  if (total === undefined || total <= PAGE_SIZE_CHOICES[0]) return null;
  return (
    <TablePagination
      component="div"
      count={total}
      page={controls.page - 1}
      rowsPerPage={controls.perPage}
      rowsPerPageOptions={[...PAGE_SIZE_CHOICES]}
      labelRowsPerPage="Rows"
      onPageChange={(_, next) => controls.setPage(next + 1)}
      onRowsPerPageChange={(event) => controls.setPerPage(Number(event.target.value))}
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', px: { xs: 0, sm: 2 } } }}
    />
  );
}
