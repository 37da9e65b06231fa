import { formatUsd } from '@domain/money';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { Alert, Box, Button, Chip, LinearProgress, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { usePrincipal } from '../access/usePrincipal';
import { formatDate } from '../formatting';
import { LoadError, Loading } from '../layout/ListStates';
import { PageTitle } from '../layout/PageTitle';
import { plainSectionTab, SectionTabs, useUrlSection } from '../layout/SectionTabs';
import { OwnScorecardTab, ProgrammeTab } from '../programme/PartnerProgramme';
import { Fact } from '../programme/ProgrammeParts';
import { byRank, listTiers, ownStanding, useLoad, type Standing, type Tier } from '../programme/programmeApi';
import { useGovernance, type Governance } from './governanceApi';

export const GOVERNANCE_TABS = [
  { key: 'programme', label: 'Partner Programme' },
  { key: 'scorecard', label: 'Scorecard' },
  { key: 'contract', label: 'Contract Information' },
  { key: 'orders', label: 'Order Process' },
  { key: 'account', label: 'Account Management' },
  { key: 'rebates', label: 'Rebate Management' },
] as const;
type TabKey = (typeof GOVERNANCE_TABS)[number]['key'];

const STATUS_COLOURS: Record<string, 'success' | 'warning' | 'info' | 'default' | 'error' | 'primary'> = {
  Active: 'success',
  Completed: 'success',
  Delivered: 'success',
  Processing: 'info',
  Shipped: 'info',
  'Pending Approval': 'warning',
  Pending: 'warning',
  Upcoming: 'default',
  Expired: 'error',
  Cancelled: 'default',
  Rejected: 'error',
  Inactive: 'default',
};

export function GovernanceStatus({ status }: { status: string }) {
  return (
    <Chip
      size="small"
      color={STATUS_COLOURS[status] ?? 'default'}
      label={status}
      variant={status === 'Upcoming' || status === 'Cancelled' ? 'outlined' : 'filled'}
    />
  );
}

const facts = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(3, minmax(0, 1fr))' }, m: 0 } as const;

function ContractTab({ data, standing }: { data: Governance; standing: Standing | undefined }) {
  const a = data.agreement;
  // The certificate names the programme tier; the approval category is the kind of partner, not its level.
  const certificate =
    a.certificate && standing
      ? `${standing.tier.name} Level ${data.agreement.kind.toLowerCase().includes('distributor') ? 'Distributor' : 'Partner'}`
      : a.certificate;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
      <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
          <Typography variant="h6" component="h2" sx={{ fontSize: '1.1rem' }}>
            {a.kind}
          </Typography>
          <GovernanceStatus status={a.status} />
        </Box>
        <Box component="dl" sx={facts}>
          <Fact label="Company">{data.company_name}</Fact>
          {standing ? <Fact label="Programme tier">{standing.tier.name}</Fact> : null}
          <Fact label="Partner type">{a.tier ?? '—'}</Fact>
          <Fact label="Category">{a.category ?? '—'}</Fact>
          <Fact label="Region">{a.region ?? '—'}</Fact>
          <Fact label="Applied">{formatDate(a.applied_on)}</Fact>
          <Fact label="Approved">{formatDate(a.approved_on)}</Fact>
          <Fact label="Current term from">{formatDate(a.term_start)}</Fact>
          <Fact label="Renews on">{formatDate(a.renewal_date)}</Fact>
          <Fact label="Days to renewal">{a.days_to_renewal ?? '—'}</Fact>
        </Box>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 2 }}>
          The agreement runs for twelve months from its approval and renews on each anniversary.
        </Typography>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, textAlign: 'center', minWidth: 0 }} data-testid="certificate">
        <WorkspacePremiumIcon color={certificate ? 'warning' : 'disabled'} sx={{ fontSize: 48 }} />
        <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
          {certificate ?? 'No certificate yet'}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {certificate ? (
            standing ? (
              <>
                The level is your partner programme tier ({standing.benefits.rebate_rate_percent}% rebate).{' '}
                <RouterLink to="?tab=programme">What the next tier needs</RouterLink>
              </>
            ) : (
              'The level is your partner programme tier.'
            )
          ) : (
            'The certificate is issued once the agreement is active.'
          )}
        </Typography>
      </Paper>
    </Box>
  );
}

const ORDER_STAGES: Array<[string, string]> = [
  ['pending', 'Pending Approval'],
  ['approved', 'Processing'],
  ['shipped', 'Shipped'],
  ['delivered', 'Delivered'],
  ['cancelled', 'Cancelled'],
];

function OrdersTab({ data }: { data: Governance }) {
  const { counts, recent, total_value } = data.orders;
  return (
    <>
      <Box
        sx={{
          display: 'grid',
          gap: 1,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', md: 'repeat(6, minmax(0, 1fr))' },
          mb: 2,
        }}
      >
        {ORDER_STAGES.map(([status, label]) => (
          <Paper key={status} variant="outlined" sx={{ p: 1.5, minWidth: 0 }}>
            <Typography variant="caption" color="text.secondary" noWrap component="p">
              {label}
            </Typography>
            <Typography variant="h6" component="p">
              {counts[status] ?? 0}
            </Typography>
          </Paper>
        ))}
        <Paper variant="outlined" sx={{ p: 1.5, minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            Order value
          </Typography>
          <Typography variant="h6" component="p" noWrap>
            {formatUsd(total_value)}
          </Typography>
        </Paper>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Orders go from Pending Approval to Processing once approved, then Shipped and Delivered. Open an order to follow its tracking.
      </Typography>
      {recent.length === 0 ? (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/catalogue" color="inherit" size="small">
              Open Catalogue
            </Button>
          }
        >
          No orders found
        </Alert>
      ) : (
        <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Table size="small" aria-label="Orders">
            <TableHead>
              <TableRow>
                <TableCell>Order</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Placed</TableCell>
                <TableCell align="right">Total</TableCell>
                <TableCell>Status</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {recent.map((order) => (
                <TableRow key={order.id} hover>
                  <TableCell>
                    <RouterLink to={`/order/track/${order.id}`}>{order.order_number}</RouterLink>
                    <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                      {formatDate(order.created_at)}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{formatDate(order.created_at)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {formatUsd(order.total_amount)}
                  </TableCell>
                  <TableCell>
                    <GovernanceStatus status={order.display_status} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </>
  );
}

function AccountTab({ data, teamPath }: { data: Governance; teamPath: string }) {
  const { members, partner_manager, support } = data.account_team;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
      <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            Your account team
          </Typography>
          <Button size="small" component={RouterLink} to={teamPath}>
            Team Management
          </Button>
        </Box>
        <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Table size="small" aria-label="Account team">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Role</TableCell>
                <TableCell>Status</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {members.map((m) => (
                <TableRow key={m.id}>
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    {m.full_name}
                    {m.is_owner ? ' (account owner)' : ''}
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      {m.email}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{m.role}</TableCell>
                  <TableCell>
                    <GovernanceStatus status={m.status} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          Your contacts at the vendor
        </Typography>
        {partner_manager ? (
          <Box sx={{ mb: 2 }}>
            <Typography variant="caption" color="text.secondary">
              Partner manager (approved your agreement)
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {partner_manager.full_name}
            </Typography>
            <Typography variant="body2" component="a" href={`mailto:${partner_manager.email}`} sx={{ wordBreak: 'break-all' }}>
              {partner_manager.email}
            </Typography>
          </Box>
        ) : null}
        <Typography variant="caption" color="text.secondary">
          Support team
        </Typography>
        {support ? (
          <>
            <Typography variant="body2">
              <a href={`tel:${support.phone.replace(/[^\d+]/g, '')}`}>{support.phone}</a>
            </Typography>
            <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
              <a href={`mailto:${support.email}`}>{support.email}</a>
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {support.hours}
            </Typography>
          </>
        ) : (
          <Typography variant="body2">
            Open a case in the <RouterLink to="/supportcenter">Support Center</RouterLink>.
          </Typography>
        )}
      </Paper>
    </Box>
  );
}

function RebatesTab({ r, standing, tiers }: { r: NonNullable<Governance['rebate_programme']>; standing: Standing | undefined; tiers: Tier[] | undefined }) {
  return (
    <>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            Annual target {r.year}
          </Typography>
          {standing ? <Chip size="small" color="primary" label={`${standing.tier.name} · ${standing.benefits.rebate_rate_percent}% rebate`} /> : null}
        </Box>
        <Box component="dl" sx={facts}>
          <Fact label="Target">{formatUsd(r.annual_target)}</Fact>
          <Fact label="Approved purchases">{formatUsd(r.annual_purchases)}</Fact>
          <Fact label="Rebates earned">{formatUsd(r.annual_rebates)}</Fact>
        </Box>
        <LinearProgress
          variant="determinate"
          value={r.annual_percentage}
          color={r.annual_percentage >= 100 ? 'success' : 'primary'}
          sx={{ mt: 2, height: 8, borderRadius: 4 }}
          aria-label="Annual progress"
        />
        <Typography variant="caption" color="text.secondary">
          {r.annual_percentage}% of the annual target
          {r.pending_claims ? ` · ${r.pending_claims} claim${r.pending_claims === 1 ? '' : 's'} (${formatUsd(r.pending_purchase_amount)}) awaiting review` : ''}
        </Typography>
      </Paper>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        Quarterly performance
      </Typography>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, minmax(0, 1fr))' }, mb: 2 }}>
        {r.quarters.map((q) => (
          <Paper key={q.label} variant="outlined" sx={{ p: 1.5, minWidth: 0 }} data-testid="quarter">
            <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'center' }}>
              <Typography variant="subtitle2">{q.label}</Typography>
              <GovernanceStatus status={q.status} />
            </Box>
            <Typography variant="body2" sx={{ mt: 1 }}>
              {formatUsd(q.purchases)} of {formatUsd(q.target)}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={q.percentage}
              color={q.percentage >= 100 ? 'success' : 'primary'}
              sx={{ my: 0.5, height: 6, borderRadius: 3 }}
            />
            <Typography variant="caption" color="text.secondary">
              Rebates {formatUsd(q.rebates)}
            </Typography>
          </Paper>
        ))}
      </Box>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        Rebate rate by programme tier
      </Typography>
      {tiers ? (
        <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: 520 }}>
          <Table size="small" aria-label="Rebate rate by programme tier">
            <TableHead>
              <TableRow>
                <TableCell>Tier</TableCell>
                <TableCell align="right">Rebate</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {byRank(tiers).map((tier) => (
                <TableRow key={tier.id} selected={tier.id === standing?.tier.id}>
                  <TableCell>{tier.name}</TableCell>
                  <TableCell align="right">{tier.benefits.rebate_rate_percent}%</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
        The rebate rate follows your partner programme tier (<RouterLink to="?tab=programme">what the next tier needs</RouterLink>). Purchases count once their
        rebate claim is approved. <RouterLink to="/rebates">Open Rebates</RouterLink>
      </Typography>
    </>
  );
}

/** /partnership-governance and /distributor/partnership-governance: the organisation's programme standing and scorecard, agreement, orders, team and rebates. */
export default function PartnershipGovernance({ teamPath }: { teamPath: string }) {
  const { data, error, reload } = useGovernance();
  // Without permission to read rebates the server sends no rebate programme, and the tab is not offered.
  // The programme ranks partner organisations; distributors keep the governance tabs only.
  const inProgramme = usePrincipal()?.role.startsWith('partner') ?? false;
  const tabs = GOVERNANCE_TABS.filter(
    (t) => (t.key !== 'rebates' || !data || data.rebate_programme) && (inProgramme || (t.key !== 'programme' && t.key !== 'scorecard')),
  );
  const home: TabKey = inProgramme ? 'programme' : 'contract';
  const [tab, choose] = useUrlSection(tabs, home);
  const standing = useLoad(() => (inProgramme ? ownStanding() : Promise.resolve(undefined)), [inProgramme]);
  const tiers = useLoad(() => (inProgramme ? listTiers() : Promise.resolve(undefined)), [inProgramme]);
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle
        title="Partnership Governance"
        subtitle={
          data
            ? `${data.company_name}: your agreement, programme tier and scorecard, orders, account team and rebates.`
            : 'Your agreement, programme tier and scorecard, orders, account team and rebates.'
        }
      />
      <SectionTabs sections={tabs} value={tab} onChange={choose} label="Partnership governance" tabProps={plainSectionTab} />
      {tab === 'programme' ? <ProgrammeTab /> : null}
      {tab === 'scorecard' ? <OwnScorecardTab /> : null}
      {tab !== 'programme' && tab !== 'scorecard' ? (
        <LoadError error={error} message="The partnership information could not be loaded." onRetry={reload} />
      ) : null}
      {!data && !error && tab !== 'programme' && tab !== 'scorecard' ? <Loading /> : null}
      {data && tab === 'contract' ? <ContractTab data={data} standing={standing.data} /> : null}
      {data && tab === 'orders' ? <OrdersTab data={data} /> : null}
      {data && tab === 'account' ? <AccountTab data={data} teamPath={teamPath} /> : null}
      {data?.rebate_programme && tab === 'rebates' ? <RebatesTab r={data.rebate_programme} standing={standing.data} tiers={tiers.data} /> : null}
    </Box>
  );
}
