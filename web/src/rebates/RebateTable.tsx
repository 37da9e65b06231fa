import type { RebateView } from '@contracts/rebates';
import { formatUsd } from '@domain/money';
import LinkIcon from '@mui/icons-material/Link';
import {
  Box,
  Card,
  CardActions,
  CardContent,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import type { ReactNode } from 'react';
import { formatDate } from '../formatting';
import { Loading } from '../layout/ListStates';
import { RebateStatusChip } from './RebateStatusChip';
import type { SortOrder } from './rebatesApi';
import { DateText, SelectAllCell, SelectRowBox, SelectRowCell, type Selection } from '../lists';

interface Column {
  key: string;
  label: string;
  sort?: string;
  align?: 'right';
  adminOnly?: boolean;
  render: (r: RebateView) => ReactNode;
}

const day = (date: string) => formatDate(`${date}T12:00:00Z`);

function MatchChip({ rebate }: { rebate: RebateView }) {
  if (!rebate.match_note) return null;
  return (
    <Chip
      size="small"
      icon={<LinkIcon />}
      label={rebate.match_note}
      variant="outlined"
      color="info"
      data-testid="match-chip"
      sx={{ mt: 0.5, maxWidth: '100%' }}
    />
  );
}

/** The columns, defined once; the admin table adds the organisation and shows the order a claim matches. */
const COLUMNS: Column[] = [
  {
    key: 'submitted',
    label: 'Submitted',
    sort: 'submitted_date',
    render: (r) => (
      <>
        <DateText value={r.submitted_date} />
        <Typography variant="caption" color="text.secondary" component="p">
          purchased {day(r.purchase_date)}
        </Typography>
      </>
    ),
  },
  { key: 'organisation', label: 'Organisation', sort: 'company_name', adminOnly: true, render: (r) => r.company_name ?? '—' },
  {
    key: 'invoice',
    label: 'Invoice and product',
    sort: 'invoice_number',
    render: (r) => (
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
          {r.invoice_number}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
          {r.product_name}
        </Typography>
        <MatchChip rebate={r} />
      </Box>
    ),
  },
  { key: 'purchase', label: 'Purchase', sort: 'purchase_amount', align: 'right', render: (r) => formatUsd(r.purchase_amount) },
  { key: 'status', label: 'Status', sort: 'status', render: (r) => <RebateStatusChip status={r.status} /> },
  { key: 'rebate', label: 'Rebate', sort: 'rebate_amount', align: 'right', render: (r) => (r.rebate_amount === null ? '—' : formatUsd(r.rebate_amount)) },
];

const NOWRAP = new Set(['submitted', 'purchase', 'rebate']);

export interface RebateTableProps {
  rows: RebateView[];
  total: number;
  admin?: boolean;
  page: number;
  perPage: number;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
  sort: SortOrder;
  onSort: (sort: SortOrder) => void;
  onOpen: (rebate: RebateView) => void;
  actions?: (rebate: RebateView) => ReactNode;
  /** Ticks for a bulk review; only claims that can still be approved or rejected get a checkbox. */
  selection?: Selection;
}

/** A claim a reviewer can still approve or reject. */
export const reviewable = (rebate: RebateView) => rebate.next_statuses.includes('approved') || rebate.next_statuses.includes('rejected');

/** Rebates as a sortable table on wide screens and as cards on phones. */
export function RebateTable({ rows, total, admin, page, perPage, onPage, onPerPage, sort, onSort, onOpen, actions, selection }: RebateTableProps) {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const columns = COLUMNS.filter((c) => admin || !c.adminOnly);
  const pagination = (
    <TablePagination
      component="div"
      count={total}
      page={page - 1}
      rowsPerPage={perPage}
      rowsPerPageOptions={[10, 25, 50]}
      onPageChange={(_, next) => onPage(next + 1)}
      onRowsPerPageChange={(event) => onPerPage(Number(event.target.value))}
    />
  );

  if (phone) {
    return (
      <Box>
        <Box sx={{ display: 'grid', gap: 1.5 }}>
          {rows.map((r) => (
            <Card key={r.id} variant="outlined" data-testid="rebate-row" data-invoice={r.invoice_number} data-status={r.status}>
              <CardContent sx={{ pb: 1, cursor: 'pointer' }} onClick={() => onOpen(r)}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'flex-start' }}>
                  {selection && reviewable(r) ? (
                    <Box onClick={(event) => event.stopPropagation()} sx={{ mt: -0.5, ml: -0.5 }}>
                      <SelectRowBox selection={selection} id={r.id} label={`Select ${r.invoice_number}`} />
                    </Box>
                  ) : null}
                  <Typography sx={{ fontWeight: 700, wordBreak: 'break-all', mr: 'auto' }}>{r.invoice_number}</Typography>
                  <RebateStatusChip status={r.status} />
                </Box>
                {admin ? (
                  <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                    {r.company_name}
                  </Typography>
                ) : null}
                <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
                  {r.product_name}
                </Typography>
                <Typography variant="caption" color="text.secondary" component="p">
                  Purchased {day(r.purchase_date)} · submitted <DateText value={r.submitted_date} />
                </Typography>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 1 }}>
                  <Typography variant="body2">{formatUsd(r.purchase_amount)}</Typography>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {r.rebate_amount === null ? '' : `Rebate ${formatUsd(r.rebate_amount)}`}
                  </Typography>
                </Box>
                {admin ? <MatchChip rebate={r} /> : null}
              </CardContent>
              {actions ? <CardActions sx={{ px: 2, pb: 1.5, pt: 0, flexWrap: 'wrap', gap: 0.5 }}>{actions(r)}</CardActions> : null}
            </Card>
          ))}
        </Box>
        {pagination}
      </Box>
    );
  }

  return (
    <Box>
      <TableContainer>
        <Table size="small" aria-label="Rebates" sx={{ '& .MuiTableCell-root': { px: 1 }, '& .MuiTableCell-root:first-of-type': { pl: 2 } }}>
          <TableHead>
            <TableRow>
              {selection ? <SelectAllCell selection={selection} label="Select all reviewable claims on this page" /> : null}
              {columns.map((c) => (
                <TableCell key={c.key} align={c.align} sortDirection={sort.field === c.sort ? (sort.order === 'ASC' ? 'asc' : 'desc') : false}>
                  {c.sort ? (
                    <TableSortLabel
                      active={sort.field === c.sort}
                      direction={sort.field === c.sort && sort.order === 'ASC' ? 'asc' : 'desc'}
                      onClick={() => onSort({ field: c.sort!, order: sort.field === c.sort && sort.order === 'DESC' ? 'ASC' : 'DESC' })}
                    >
                      {c.label}
                    </TableSortLabel>
                  ) : (
                    c.label
                  )}
                </TableCell>
              ))}
              {actions ? <TableCell align="right">Actions</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow
                key={r.id}
                hover
                selected={selection?.has(r.id) ?? false}
                data-testid="rebate-row"
                data-invoice={r.invoice_number}
                data-status={r.status}
                sx={{ cursor: 'pointer' }}
                onClick={() => onOpen(r)}
              >
                {selection ? (
                  reviewable(r) ? (
                    <SelectRowCell selection={selection} id={r.id} label={`Select ${r.invoice_number}`} />
                  ) : (
                    <TableCell padding="checkbox" />
                  )
                ) : null}
                {columns.map((c) => (
                  <TableCell
                    key={c.key}
                    align={c.align}
                    sx={{ maxWidth: c.key === 'invoice' ? 240 : 150, whiteSpace: NOWRAP.has(c.key) ? 'nowrap' : undefined }}
                  >
                    {c.render(r)}
                  </TableCell>
                ))}
                {actions ? (
                  <TableCell align="right" onClick={(event) => event.stopPropagation()} sx={{ whiteSpace: 'nowrap' }}>
                    {actions(r)}
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {pagination}
    </Box>
  );
}

/** A rebate list's body: the first load, the empty message (unless the load failed, which the screen says) or the claims. */
export function RebateResults({
  loaded,
  loading,
  failed,
  filtered,
  ...table
}: RebateTableProps & { loaded: boolean; loading: boolean; failed: boolean; filtered: boolean }) {
  if (!loaded && loading) return <Loading />;
  if (table.rows.length === 0 && !failed) {
    return (
      <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }}>
        {filtered ? 'No rebates match these filters.' : 'No rebates found'}
      </Typography>
    );
  }
  return <RebateTable {...table} />;
}
