import type { ShippingProfile } from '@contracts/orders';
import { canShip, hasPermission } from '@domain/access';
import { formatUsd } from '@domain/money';
import {
  DEFAULT_SHIPPING_COUNTRY,
  estimatedDeliveryProblem,
  SHIPPING_COUNTRIES,
  shippingAddressProblems,
  type ShippingAddress,
  type ShippingField,
} from '@domain/orders/shipping';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Alert, Box, Button, Divider, MenuItem, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useGetList } from 'react-admin';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { usePrincipal } from '../access/usePrincipal';
import { clearCart, cartTotal, useCart, type CartLine } from '../catalogue/cart';
import { PageTitle } from '../layout/PageTitle';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { getStoredUser } from '../providers/session';
import { RoleAndPermissions } from './AccessRestricted';
import { rememberConfirmedOrder } from './OrderConfirmation';
import { getShippingProfile, placeOrder } from './ordersApi';

export const ORDER_CREATED_MESSAGE = 'Order created successfully!';
export const ORDER_FAILED_MESSAGE = 'Failed to create order.';
export const ORDER_ERROR_MESSAGE = 'Error creating order.';

type AddressForm = Required<ShippingAddress>;
type Errors = Partial<Record<ShippingField | 'estimatedDelivery' | `quantity-${string}`, string>>;

const todayLocal = () => {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
};

const ADDRESS_FIELDS: Array<{
  name: Exclude<ShippingField, 'country' | 'specialInstructions'>;
  label: string;
  required: boolean;
  autoComplete: string;
  type?: string;
  wide?: boolean;
}> = [
  { name: 'firstName', label: 'First Name', required: true, autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last Name', required: true, autoComplete: 'family-name' },
  { name: 'email', label: 'Email', required: true, autoComplete: 'email', type: 'email' },
  { name: 'phone', label: 'Phone', required: true, autoComplete: 'tel', type: 'tel' },
  { name: 'addressLine1', label: 'Street Address', required: true, autoComplete: 'address-line1', wide: true },
  { name: 'addressLine2', label: 'Apartment, suite, etc. (optional)', required: false, autoComplete: 'address-line2', wide: true },
  { name: 'city', label: 'City', required: true, autoComplete: 'address-level2' },
  { name: 'state', label: 'State', required: true, autoComplete: 'address-level1' },
  { name: 'zipCode', label: 'ZIP Code', required: true, autoComplete: 'postal-code' },
];

/** /order/shipping: the shipping address, delivery date, quantities and notes; it creates the order. */
export default function OrderShipping() {
  const principal = usePrincipal();
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const stored = useCart();
  const carried = (location.state as { cart?: CartLine[] } | null)?.cart;
  const cart = stored.length ? stored : (carried ?? []);
  const allowed = Boolean(principal && canShip(principal));
  const user = getStoredUser();
  const [name1, ...rest] = (user?.full_name ?? '').split(' ');
  const [address, setAddress] = useState<AddressForm>({
    firstName: name1 ?? '',
    lastName: rest.join(' '),
    email: user?.email ?? '',
    phone: '',
    addressLine1: '',
    addressLine2: '',
    city: '',
    state: '',
    zipCode: '',
    country: DEFAULT_SHIPPING_COUNTRY,
    specialInstructions: '',
  });
  const [estimatedDelivery, setEstimatedDelivery] = useState('');
  const [notes, setNotes] = useState('');
  const [projectId, setProjectId] = useState(() => new URLSearchParams(location.search).get('project') ?? '');
  const mayLinkProject = Boolean(principal && hasPermission(principal, 'Projects.Read'));
  const projects = useGetList<{ id: string; title: string }>(
    'projects',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'created_at', order: 'DESC' }, filter: { linkable: true } },
    { enabled: mayLinkProject },
  );
  const [quantities, setQuantities] = useState<Record<string, string>>(() => Object.fromEntries(cart.map((l) => [l.id, String(l.quantity)])));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // One key per visit to the form: a double click or a retried request places one order.
  const idempotencyKey = useMemo(() => crypto.randomUUID(), []);

  const lines = cart.map((line) => ({ ...line, quantity: Number(quantities[line.id] ?? line.quantity) }));
  const total = cartTotal(lines.map((l) => ({ ...l, quantity: Number.isFinite(l.quantity) ? l.quantity : 0 })));

  // The organisation's profile fills what the buyer has not typed yet (the country too, until they pick one).
  const [profile, setProfile] = useState<ShippingProfile | null>(null);
  const touched = useRef(new Set<keyof AddressForm>());
  useEffect(() => {
    if (!allowed) return;
    let live = true;
    getShippingProfile()
      .then((found) => {
        if (!live) return;
        setProfile(found);
        setAddress((current) => {
          const next = { ...current };
          for (const [name, value] of Object.entries(found.address) as Array<[keyof AddressForm, string | undefined]>) {
            if (!value || touched.current.has(name)) continue;
            if (name === 'country' || !current[name]) next[name] = value;
          }
          return next;
        });
        setPrefilled(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [allowed]);
  // Once the profile has filled the form, what it left empty is marked at once, before Place Order is pressed.
  const [prefilled, setPrefilled] = useState(false);
  useEffect(() => {
    if (!prefilled) return;
    const missing = shippingAddressProblems(address);
    setErrors((current) => ({ ...missing, ...current }));
    // Only once, right after the prefill: later edits clear their own field's mark.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [prefilled]);
  const profileCountry = profile?.address.country;
  const countryMismatch = Boolean(profileCountry && address.country && address.country !== profileCountry);

  const setField = (name: keyof AddressForm, value: string) => {
    touched.current.add(name);
    setAddress((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const validate = (): Errors => {
    const found: Errors = { ...shippingAddressProblems(address) };
    const dateProblem = estimatedDeliveryProblem(estimatedDelivery, new Date());
    if (dateProblem) found.estimatedDelivery = dateProblem;
    for (const line of lines) {
      const q = line.quantity;
      if (!Number.isInteger(q) || q < 1) found[`quantity-${line.id}`] = 'Quantity must be at least 1';
      else if (q < line.moq) found[`quantity-${line.id}`] = `Minimum order quantity is ${line.moq}`;
      else if (q > line.stock_quantity) found[`quantity-${line.id}`] = `Only ${line.stock_quantity} in stock`;
    }
    return found;
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!allowed || submitting) return;
    setFailure(null);
    const found = validate();
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSubmitting(true);
    try {
      const answer = await placeOrder(
        {
          ...(user?.id ? { partner_id: user.id } : {}),
          estimated_delivery: estimatedDelivery,
          notes: notes.trim() || undefined,
          ...(projectId ? { project_id: projectId } : {}),
          items: lines.map((l) => ({ product_id: l.id, quantity: l.quantity, unit_price: l.price })),
          shipping_address: address,
        },
        idempotencyKey,
      );
      toast(answer.message ?? ORDER_CREATED_MESSAGE, 'success');
      clearCart();
      rememberConfirmedOrder(answer.data.id);
      // An order answered 202 is saved but not readable yet: the confirmation reads it by its id.
      navigate('/order/confirmation', { state: answer.accepted ? undefined : { order: answer.data }, replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status !== 0) {
        const fields: Errors = {};
        for (const [field, message] of Object.entries(error.fieldErrors)) {
          const name = field.replace(/^shipping_address\./, '');
          if (name === 'estimated_delivery') fields.estimatedDelivery = message;
          else if (/^items\.\d+\./.test(name)) {
            const line = lines[Number(name.split('.')[1])];
            if (line) fields[`quantity-${line.id}`] = message;
          } else fields[name as ShippingField] = message;
        }
        setErrors(fields);
        const message = error.message !== 'An error occurred' ? error.message : ORDER_FAILED_MESSAGE;
        setFailure(message);
        toast(message, 'error');
      } else {
        setFailure(ORDER_ERROR_MESSAGE);
        toast(ORDER_ERROR_MESSAGE, 'error');
      }
    } finally {
      setSubmitting(false);
    }
  };

  if (!cart.length) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Shipping & Order Details" />
        <Paper variant="outlined" sx={{ p: 3, maxWidth: 640 }}>
          <Typography sx={{ mb: 2 }}>Please add items to cart before proceeding to checkout</Typography>
          {principal && hasPermission(principal, 'Orders.Browse') ? (
            <Button variant="contained" component={RouterLink} to="/catalogue">
              Browse Products
            </Button>
          ) : null}
        </Paper>
      </Box>
    );
  }

  const section = { p: { xs: 2, md: 3 }, mb: 2 };
  const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } };

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0, maxWidth: 1100 }}>
      <PageTitle title="Shipping & Order Details" subtitle="Where should we deliver, and when?" />
      {!allowed ? (
        <Alert severity="warning" icon={<LockOutlinedIcon />} sx={{ mb: 2 }} data-testid="shipping-restricted">
          <strong>You don't have permission to access shipment details.</strong> Placing an order needs the Manage Shipping permission (Orders.Shipping). Please
          contact your administrator.
          <RoleAndPermissions />
        </Alert>
      ) : null}
      <Box
        component="form"
        noValidate
        onSubmit={submit}
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) 340px' }, alignItems: 'start' }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Paper variant="outlined" sx={section}>
            <Typography variant="h6" component="h2" sx={{ mb: profile?.company_name ? 0.5 : 2 }}>
              Shipping Address
            </Typography>
            {profile?.company_name ? (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="profile-prefill">
                Filled in from the {profile.company_name} profile; change anything that differs for this delivery.
              </Typography>
            ) : null}
            <Box sx={grid}>
              {ADDRESS_FIELDS.map((field) => (
                <TextField
                  key={field.name}
                  name={field.name}
                  label={field.label}
                  required={field.required}
                  type={field.type}
                  autoComplete={field.autoComplete}
                  value={address[field.name]}
                  onChange={(e) => setField(field.name, e.target.value)}
                  error={Boolean(errors[field.name])}
                  helperText={errors[field.name]}
                  disabled={!allowed}
                  sx={field.wide ? { gridColumn: { sm: '1 / -1' } } : undefined}
                />
              ))}
              <TextField
                select
                name="country"
                label="Country"
                required
                value={address.country}
                onChange={(e) => setField('country', e.target.value)}
                error={Boolean(errors.country)}
                helperText={errors.country}
                disabled={!allowed}
              >
                {SHIPPING_COUNTRIES.map((country) => (
                  <MenuItem key={country} value={country}>
                    {country}
                  </MenuItem>
                ))}
              </TextField>
              {countryMismatch ? (
                <Alert severity="warning" sx={{ gridColumn: { sm: '1 / -1' } }} data-testid="country-mismatch">
                  Your organisation's profile gives its country as {profile?.profile_country ?? profileCountry}, but this order ships to {address.country}.
                  Check the country before placing the order.
                </Alert>
              ) : null}
            </Box>
          </Paper>
          <Paper variant="outlined" sx={section}>
            <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
              Delivery & Notes
            </Typography>
            <Box sx={grid}>
              <TextField
                name="estimatedDelivery"
                label="Delivery Date"
                type="date"
                required
                value={estimatedDelivery}
                onChange={(e) => {
                  setEstimatedDelivery(e.target.value);
                  setErrors((c) => ({ ...c, estimatedDelivery: undefined }));
                }}
                error={Boolean(errors.estimatedDelivery)}
                helperText={errors.estimatedDelivery}
                disabled={!allowed}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: todayLocal() } }}
              />
              {mayLinkProject && projects.data?.length ? (
                <TextField
                  select
                  name="project"
                  label="Project (optional)"
                  value={projectId}
                  onChange={(e) => setProjectId(e.target.value)}
                  disabled={!allowed}
                  helperText="Link this order to one of your deal registrations."
                >
                  <MenuItem value="">No project</MenuItem>
                  {projects.data.map((p) => (
                    <MenuItem key={p.id} value={p.id}>
                      {p.title}
                    </MenuItem>
                  ))}
                </TextField>
              ) : (
                <Box />
              )}
              <TextField
                name="notes"
                label="Order Notes (optional)"
                multiline
                minRows={2}
                value={notes}
                onChange={(e) => setNotes(e.target.value)}
                disabled={!allowed}
                slotProps={{ htmlInput: { maxLength: 2000 } }}
              />
              <TextField
                name="specialInstructions"
                label="Special Instructions (optional)"
                multiline
                minRows={2}
                value={address.specialInstructions}
                onChange={(e) => setField('specialInstructions', e.target.value)}
                error={Boolean(errors.specialInstructions)}
                helperText={errors.specialInstructions}
                disabled={!allowed}
                slotProps={{ htmlInput: { maxLength: 1000 } }}
              />
            </Box>
          </Paper>
        </Box>

        <Paper variant="outlined" sx={{ ...section, position: { md: 'sticky' }, top: { md: 80 } }} component="section" aria-label="Order summary">
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            Order Summary
          </Typography>
          <Table size="small" sx={{ '& td, & th': { px: 0.5 } }}>
            <TableHead>
              <TableRow>
                <TableCell>Product</TableCell>
                <TableCell align="right">Qty</TableCell>
                <TableCell align="right">Amount</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((line) => (
                <TableRow key={line.id}>
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    <Typography variant="body2">{line.name}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {formatUsd(line.price)} · MOQ {line.moq}
                    </Typography>
                    {errors[`quantity-${line.id}`] ? (
                      <Typography variant="caption" color="error" component="p">
                        {errors[`quantity-${line.id}`]}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell align="right">
                    <TextField
                      size="small"
                      type="number"
                      value={quantities[line.id] ?? String(line.quantity)}
                      onChange={(e) => {
                        setQuantities((q) => ({ ...q, [line.id]: e.target.value }));
                        setErrors((c) => ({ ...c, [`quantity-${line.id}`]: undefined }));
                      }}
                      error={Boolean(errors[`quantity-${line.id}`])}
                      disabled={!allowed}
                      sx={{ width: 72 }}
                      slotProps={{
                        htmlInput: {
                          min: Math.max(1, line.moq),
                          max: line.stock_quantity,
                          'aria-label': `Quantity of ${line.name}`,
                          style: { padding: '6px 6px' },
                        },
                      }}
                    />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {Number.isFinite(line.quantity) ? formatUsd(line.price * line.quantity) : '—'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Divider sx={{ my: 1.5 }} />
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', mb: 2 }}>
            <Typography sx={{ fontWeight: 600 }}>Total</Typography>
            <Typography variant="h6" component="p" data-testid="order-total">
              {formatUsd(total)}
            </Typography>
          </Box>
          {failure ? (
            <Alert severity="error" sx={{ mb: 2 }} role="alert">
              {failure}
            </Alert>
          ) : null}
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            disabled={!allowed || submitting}
            startIcon={allowed ? <LocalShippingIcon /> : <LockOutlinedIcon />}
          >
            {!allowed ? 'Shipment Access Restricted' : submitting ? 'Placing Order...' : 'Place Order'}
          </Button>
          <Button component={RouterLink} to="/catalogue" fullWidth sx={{ mt: 1 }}>
            Back to Catalogue
          </Button>
        </Paper>
      </Box>
    </Box>
  );
}
