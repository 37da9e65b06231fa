import { formatUsd } from '@domain/catalogue/catalogue';
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
import { RebateStatusChip } from './RebateStatusChip';
import type { RebateRecord, SortOrder } from './rebatesApi';

interface Column {
  key: string;
  label: string;
  sort?: string;
  align?: 'right';
  adminOnly?: boolean;
  render: (r: RebateRecord) => ReactNode;
}

const day = (date: string) => formatDate(`${date}T12:00:00Z`);

/** The columns, defined once; the admin table adds the organisation and the order match. */
const COLUMNS: Column[] = [
  { key: 'submitted', label: 'Submitted', sort: 'submitted_date', render: (r) => formatDate(r.submitted_date) },
  { key: 'organisation', label: 'Organisation', sort: 'company_name', adminOnly: true, render: (r) => r.company_name ?? '—' },
  { key: 'invoice', label: 'Invoice', sort: 'invoice_number', render: (r) => r.invoice_number },
  { key: 'product', label: 'Product', sort: 'product_name', render: (r) => r.product_name },
  { key: 'purchase_date', label: 'Purchase date', sort: 'purchase_date', render: (r) => day(r.purchase_date) },
  { key: 'purchase', label: 'Purchase', sort: 'purchase_amount', align: 'right', render: (r) => formatUsd(r.purchase_amount) },
  { key: 'status', label: 'Status', sort: 'status', render: (r) => <RebateStatusChip status={r.status} /> },
  { key: 'rebate', label: 'Rebate', sort: 'rebate_amount', align: 'right', render: (r) => (r.rebate_amount === null ? '—' : formatUsd(r.rebate_amount)) },
  {
    key: 'match',
    label: 'Order match',
    adminOnly: true,
    render: (r) => (r.match_note ? <Chip size="small" icon={<LinkIcon />} label={r.match_note} variant="outlined" color="info" data-testid="match-chip" /> : '—'),
  },
];

export interface RebateTableProps {
  rows: RebateRecord[];
  total: number;
  admin?: boolean;
  page: number;
  perPage: number;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
  sort: SortOrder;
  onSort: (sort: SortOrder) => void;
  onOpen: (rebate: RebateRecord) => void;
  actions?: (rebate: RebateRecord) => ReactNode;
}

/** Rebates as a sortable table on wide screens and as cards on phones. */
export function RebateTable({ rows, total, admin, page, perPage, onPage, onPerPage, sort, onSort, onOpen, actions }: RebateTableProps) {
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
                  <Typography sx={{ fontWeight: 700, wordBreak: 'break-all' }}>{r.invoice_number}</Typography>
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
                  Purchased {day(r.purchase_date)} · submitted {formatDate(r.submitted_date)}
                </Typography>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 1 }}>
                  <Typography variant="body2">{formatUsd(r.purchase_amount)}</Typography>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {r.rebate_amount === null ? '' : `Rebate ${formatUsd(r.rebate_amount)}`}
                  </Typography>
                </Box>
                {admin && r.match_note ? <Chip size="small" icon={<LinkIcon />} label={r.match_note} variant="outlined" color="info" sx={{ mt: 1, maxWidth: '100%' }} /> : null}
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
        <Table size="small" aria-label="Rebates">
          <TableHead>
            <TableRow>
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
              <TableRow key={r.id} hover data-testid="rebate-row" data-invoice={r.invoice_number} data-status={r.status} sx={{ cursor: 'pointer' }} onClick={() => onOpen(r)}>
                {columns.map((c) => (
                  <TableCell key={c.key} align={c.align} sx={{ maxWidth: 240, overflow: 'hidden', textOverflow: 'ellipsis' }}>
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
