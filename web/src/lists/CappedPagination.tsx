import { Alert } from '@mui/material';
import { ListPaginationContext, Pagination, useListPaginationContext } from 'react-admin';
import { PAGED_ROWS_LIMIT } from './listControls';

/**
 * react-admin's pagination over at most the first PAGED_ROWS_LIMIT rows, with a note saying how to
 * reach the others when more match: the server refuses page numbers past them.
 */
export function CappedPagination({ rowsPerPageOptions, noun }: { rowsPerPageOptions: number[]; noun: string }) {
  const context = useListPaginationContext();
  const capped = context.total !== undefined && context.total > PAGED_ROWS_LIMIT;
  const total = capped ? PAGED_ROWS_LIMIT : context.total;
  return (
    <>
      <ListPaginationContext.Provider value={{ ...context, total, hasNextPage: context.page * context.perPage < (total ?? 0) }}>
        <Pagination rowsPerPageOptions={rowsPerPageOptions} />
      </ListPaginationContext.Provider>
      {capped ? (
        <Alert severity="info" sx={{ mt: 1 }} data-testid="pages-capped">
          {context.total!.toLocaleString('en-US')} {noun} match: the pages reach the first {PAGED_ROWS_LIMIT.toLocaleString('en-US')}. Narrow the filters or
          sort the other way to see the rest, or export them all.
        </Alert>
      ) : null}
    </>
  );
}
