import type { OrderStatusCounts, OrderView } from '@contracts/orders';
import { seesAllOrganisations } from '@domain/access';
import { formatUsd } from '@domain/money';
import { statusLabel } from '@domain/orders/orders';
import DownloadIcon from '@mui/icons-material/Download';
import EditNoteIcon from '@mui/icons-material/EditNote';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { Box, Button, MenuItem, Tab, Tabs, TextField, Typography, useMediaQuery, type TextFieldProps, type Theme } from '@mui/material';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Datagrid, FunctionField, NumberField, SimpleList, TextField as RaTextField, useListContext } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { useToast } from '../layout/toast';
import { DateText, EmptyState, ListToolbar, type ListSortChoice } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { formatDay } from './orderDates';
import { exportOrders, getOrderOrganisations, getOrderStatusCounts } from './ordersApi';
import { OrderStatusChip } from './OrderStatusChip';

/** The tabs above the list, as Posters Galore's order tabs: every status with its count under the other filters. */
export const ORDER_TABS = ['', 'pending', 'approved', 'shipped', 'delivered', 'cancelled'] as const;
export const ORDER_PAGE_SIZES = [10, 25, 50, 100];
export const orderPath = (record: { id: string | number }) => `/order/track/${record.id}`;

const SORT_CHOICES: ListSortChoice[] = [
  { field: 'created_at', order: 'DESC', label: 'Newest first' },
  { field: 'created_at', order: 'ASC', label: 'Oldest first' },
  { field: 'total_amount', order: 'DESC', label: 'Highest total' },
  { field: 'total_amount', order: 'ASC', label: 'Lowest total' },
  { field: 'order_number', order: 'ASC', label: 'Order number' },
  { field: 'company_name', order: 'ASC', label: 'Company' },
];

/** Status tabs with counts; `version` changes when an order changed, so the counts follow. */
function StatusTabs({ version }: { version: number }) {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const [counts, setCounts] = useState<OrderStatusCounts | null>(null);
  const { status: _status, ...others } = filterValues as Record<string, unknown>;
  const key = JSON.stringify(others);
  useEffect(() => {
    let live = true;
    getOrderStatusCounts(JSON.parse(key) as Record<string, unknown>)
      .then((next) => live && setCounts(next))
      .catch(() => live && setCounts(null));
    return () => {
      live = false;
    };
  }, [key, version]);
  const current = typeof filterValues.status === 'string' ? filterValues.status : '';
  return (
    <Tabs
      value={(ORDER_TABS as readonly string[]).includes(current) ? current : ''}
      onChange={(_, status: string) => setFilters({ ...filterValues, status: status || undefined }, displayedFilters)}
      variant="scrollable"
      scrollButtons="auto"
      allowScrollButtonsMobile
      aria-label="Filter orders by status"
      sx={{ mb: 1.5, borderBottom: 1, borderColor: 'divider' }}
    >
      {ORDER_TABS.map((status) => {
        const label = status ? statusLabel(status) : 'All';
        const count = counts ? counts[status || 'all'] : undefined;
        return (
          <Tab key={status || 'all'} value={status} label={count === undefined ? label : `${label} (${count})`} data-testid={`order-tab-${status || 'all'}`} />
        );
      })}
    </Tabs>
  );
}

type FilterKey = 'q' | 'organisation_id' | 'date_gte' | 'date_lte' | 'total_gte' | 'total_lte';
type WriteFilter = (name: FilterKey, value: string) => void;

/**
 * Typed filters (search, dates, totals) reach the list's filters after a pause in typing, all in one
 * write: two boxes changed in quick succession must not overwrite each other's value.
 */
function useFilterWriter(): WriteFilter {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  // The other filters as they are when the pause ends (a tab may have been picked while typing).
  const latest = useRef({ filterValues, displayedFilters });
  latest.current = { filterValues, displayedFilters };
  const pending = useRef<Record<string, string | undefined>>({});
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (name: FilterKey, value: string) => {
      pending.current[name] = value.trim() || undefined;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const patch = pending.current;
        pending.current = {};
        setFilters({ ...latest.current.filterValues, ...patch }, latest.current.displayedFilters);
      }, 400);
    },
    [setFilters],
  );
}

/** A typed filter's text: the list's value, while the user is not typing over it. */
function useFilterText(name: FilterKey, write: WriteFilter) {
  const { filterValues } = useListContext();
  const stored = filterValues[name] === undefined ? '' : String(filterValues[name]);
  const [value, setValue] = useState(stored);
  useEffect(() => setValue(stored), [stored]);
  const change = (next: string) => {
    setValue(next);
    write(name, next);
  };
  return [value, change] as const;
}

function OrganisationFilter() {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const [organisations, setOrganisations] = useState<Array<{ id: string; name: string }>>([]);
  useEffect(() => {
    getOrderOrganisations()
      .then(setOrganisations)
      .catch(() => setOrganisations([]));
  }, []);
  return (
    <TextField
      select
      size="small"
      label="Organisation"
      value={typeof filterValues.organisation_id === 'string' ? filterValues.organisation_id : ''}
      onChange={(event) => setFilters({ ...filterValues, organisation_id: event.target.value || undefined }, displayedFilters)}
      sx={{ flex: { xs: '1 1 100%', sm: '0 1 220px' }, minWidth: 0 }}
      slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
    >
      <MenuItem value="">All organisations</MenuItem>
      {organisations.map((organisation) => (
        <MenuItem key={organisation.id} value={organisation.id}>
          {organisation.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

// Two range boxes share a line on phones.
const HALF_WIDTH = { flex: { xs: '1 1 calc(50% - 6px)', sm: '0 1 150px' }, minWidth: 0 };
const MONEY_INPUT = { htmlInput: { min: 0, step: 100, inputMode: 'decimal' as const } };

/** One end of a date or total range. */
function RangeField({
  name,
  label,
  type,
  value,
  onChange,
  slotProps,
}: {
  name: FilterKey;
  label: string;
  type: 'date' | 'number';
  value: string;
  onChange: (value: string) => void;
  slotProps: TextFieldProps['slotProps'];
}) {
  return (
    <TextField
      size="small"
      type={type}
      label={label}
      name={name}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={HALF_WIDTH}
      slotProps={slotProps}
    />
  );
}

function RangeFilters({ write }: { write: WriteFilter }) {
  const [from, setFrom] = useFilterText('date_gte', write);
  const [to, setTo] = useFilterText('date_lte', write);
  const [min, setMin] = useFilterText('total_gte', write);
  const [max, setMax] = useFilterText('total_lte', write);
  return (
    <>
      <RangeField
        type="date"
        label="Ordered from"
        name="date_gte"
        value={from}
        onChange={setFrom}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: to || undefined } }}
      />
      <RangeField
        type="date"
        label="Ordered to"
        name="date_lte"
        value={to}
        onChange={setTo}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: from || undefined } }}
      />
      <RangeField type="number" label="Total from ($)" name="total_gte" value={min} onChange={setMin} slotProps={MONEY_INPUT} />
      <RangeField type="number" label="Total to ($)" name="total_lte" value={max} onChange={setMax} slotProps={MONEY_INPUT} />
    </>
  );
}

/** Export: the server streams every order the filters select, in the list's order. */
function ExportOrdersButton() {
  const { filterValues, sort, total } = useListContext();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await exportOrders(filterValues as Record<string, unknown>, sort);
    } catch (error) {
      toast(messageOf(error, 'The export failed. Please try again.'), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => void run()} disabled={busy || !total} aria-label="Export CSV">
      {busy ? 'Exporting...' : 'Export'}
    </Button>
  );
}

/** Search, organisation (for those who see every organisation), date and total ranges, sort on phones, and Export. */
function OrderToolbar({ everyOrganisation }: { everyOrganisation: boolean }) {
  const { sort, setSort, filterValues } = useListContext();
  const write = useFilterWriter();
  const [search, setSearch] = useFilterText('q', write);
  // The phone's Filters button counts what is folded behind it: the organisation and the ranges.
  const activeFilters = ['organisation_id', 'date_gte', 'date_lte', 'total_gte', 'total_lte'].filter(
    (key) => (filterValues as Record<string, unknown>)[key] !== undefined && (filterValues as Record<string, unknown>)[key] !== '',
  ).length;
  return (
    <ListToolbar
      activeFilters={activeFilters}
      search={{
        value: search,
        onChange: setSearch,
        placeholder: everyOrganisation ? 'Order number or company' : 'Order number',
        label: 'Search orders by order number or company',
      }}
      filters={
        <>
          {everyOrganisation ? <OrganisationFilter /> : null}
          <RangeFilters write={write} />
        </>
      }
      sortChoices={SORT_CHOICES}
      sort={sort}
      onSortChange={setSort}
      actions={<ExportOrdersButton />}
    />
  );
}

/** What the list shows without rows: nothing matched the filters, or no orders yet. */
function OrdersEmpty({ action }: { action?: ReactNode }) {
  const { filterValues, setFilters } = useListContext();
  const filtered = Object.keys(filterValues).length > 0;
  return (
    <EmptyState
      filtered={filtered}
      title={filtered ? 'No orders match these filters' : 'No orders yet'}
      message={
        filtered ? 'Try another status, a wider date or total range, or a shorter search.' : 'Orders placed from the catalogue appear here with their status.'
      }
      onClearFilters={() => setFilters({}, [])}
      action={action}
    />
  );
}

/** A visible way to the order's tracking page (the whole row leads there too). */
function TrackButton({ record }: { record: OrderView }) {
  return (
    <Button
      size="small"
      component={RouterLink}
      to={orderPath(record)}
      startIcon={<LocalShippingIcon />}
      aria-label={`Track ${record.order_number}`}
      onClick={(event: React.MouseEvent) => event.stopPropagation()}
      sx={{ whiteSpace: 'nowrap' }}
    >
      Track
    </Button>
  );
}

function UpdateStatusButton({ record, onUpdate }: { record: OrderView; onUpdate: (order: OrderView) => void }) {
  // Offered only while the order has somewhere to go: delivered and cancelled orders are final.
  if (!record.next_statuses.length) return null;
  return (
    <Button
      size="small"
      startIcon={<EditNoteIcon />}
      aria-label={`Update status of ${record.order_number}`}
      onClick={(event) => {
        event.stopPropagation();
        onUpdate(record);
      }}
      sx={{ whiteSpace: 'nowrap' }}
    >
      Update Status
    </Button>
  );
}

/**
 * The orders as react-admin shows a list: a sortable Datagrid on wide screens, a SimpleList on
 * phones; a row opens the order. Administrators get Update Status on rows that can still move.
 */
export function OrderListBody({
  admin,
  onUpdate,
  version,
  emptyAction,
}: {
  admin: boolean;
  onUpdate: (order: OrderView) => void;
  version: number;
  emptyAction?: ReactNode;
}) {
  const { role } = useAccess();
  const everyOrganisation = seesAllOrganisations(role);
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  // The requested delivery date is on the order's page; the table shows it only where it fits.
  const roomy = useMediaQuery<Theme>((theme) => theme.breakpoints.up('xl'));
  const empty = useMemo(() => <OrdersEmpty action={emptyAction} />, [emptyAction]);
  return (
    <>
      <OrderToolbar everyOrganisation={everyOrganisation} />
      <StatusTabs version={version} />
      {phone ? (
        <SimpleList<OrderView>
          rowClick={(_id, _resource, record) => orderPath(record as OrderView)}
          primaryText={(record) => (
            <Box
              component="span"
              sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
              data-order-number={record.order_number}
              data-testid="order-row"
            >
              <Box component="span" sx={{ fontWeight: 600 }}>
                {record.order_number}
              </Box>
              <OrderStatusChip status={record.status} />
            </Box>
          )}
          secondaryText={(record) => (
            <Box component="span" sx={{ display: 'block', wordBreak: 'break-word' }}>
              {everyOrganisation && record.company_name ? `${record.company_name} · ` : ''}
              <DateText value={record.created_at} /> · {record.item_count} unit{record.item_count === 1 ? '' : 's'}
            </Box>
          )}
          tertiaryText={(record) => (
            <Typography component="span" variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
              {formatUsd(record.total_amount)}
            </Typography>
          )}
          empty={empty}
          sx={{ '& .MuiListItemText-root': { minWidth: 0 } }}
        />
      ) : (
        <Datagrid
          rowClick={(_id, _resource, record) => orderPath(record as OrderView)}
          bulkActionButtons={false}
          empty={empty}
          sx={{
            '& .RaDatagrid-headerCell': { fontWeight: 600, whiteSpace: 'nowrap' },
            '& .RaDatagrid-rowCell': { py: 1 },
            '& .RaDatagrid-rowCell, & .RaDatagrid-headerCell': { px: 1 },
          }}
        >
          <FunctionField<OrderView>
            source="order_number"
            label="Order"
            render={(record) => (
              <Box component="span" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }} data-order-number={record.order_number} data-testid="order-row">
                {record.order_number}
              </Box>
            )}
          />
          <FunctionField<OrderView> source="created_at" label="Ordered" sortByOrder="DESC" render={(record) => <DateText value={record.created_at} />} />
          {everyOrganisation ? <RaTextField source="company_name" label="Company" emptyText="—" /> : null}
          <FunctionField<OrderView> source="status" label="Status" render={(record) => <OrderStatusChip status={record.status} />} />
          <NumberField source="item_count" label="Units" />
          <FunctionField<OrderView>
            source="total_amount"
            label="Total"
            sortByOrder="DESC"
            textAlign="right"
            render={(record) => (
              <Box component="span" sx={{ whiteSpace: 'nowrap' }} data-testid="order-total">
                {formatUsd(record.total_amount)}
              </Box>
            )}
          />
          {roomy ? (
            <FunctionField<OrderView>
              source="estimated_delivery"
              label="Requested delivery"
              render={(record) => <span style={{ whiteSpace: 'nowrap' }}>{formatDay(record.estimated_delivery)}</span>}
            />
          ) : null}
          {admin ? (
            <FunctionField<OrderView> label="" sortable={false} render={(record) => <UpdateStatusButton record={record} onUpdate={onUpdate} />} />
          ) : (
            <FunctionField<OrderView> label="" sortable={false} render={(record) => <TrackButton record={record} />} />
          )}
        </Datagrid>
      )}
    </>
  );
}
