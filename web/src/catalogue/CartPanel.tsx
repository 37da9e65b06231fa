import { formatUsd } from '@domain/money';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import RemoveIcon from '@mui/icons-material/Remove';
import ShoppingCartCheckoutIcon from '@mui/icons-material/ShoppingCartCheckout';
import { Alert, Box, Button, Divider, IconButton, TextField, Tooltip, Typography } from '@mui/material';
import { ProductThumb } from '../products/ProductThumb';
import { cartCount, cartTotal, removeFromCart, setCartQuantity, type CartLine } from './cart';

/** One cart line: picture, name, unit price, a stepper that stays within 1 and the stock, remove, line total. */
function CartLineRow({ line }: { line: CartLine }) {
  const max = Math.max(line.stock_quantity, 1);
  return (
    <Box sx={{ display: 'flex', gap: 1.5, py: 1.5, alignItems: 'flex-start' }} data-testid="cart-line">
      <ProductThumb src={line.image_url} name={line.name} size={40} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
          {line.name}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {formatUsd(line.price)} each
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
          <IconButton
            size="small"
            aria-label={`Decrease quantity of ${line.name}`}
            onClick={() => setCartQuantity(line.id, line.quantity - 1)}
            disabled={line.quantity <= 1}
          >
            <RemoveIcon fontSize="small" />
          </IconButton>
          <TextField
            size="small"
            type="number"
            value={line.quantity}
            onChange={(event) => setCartQuantity(line.id, Number(event.target.value))}
            sx={{ width: 64, flex: '0 0 64px' }}
            slotProps={{ htmlInput: { min: 1, max, 'aria-label': `Quantity of ${line.name} in the cart`, style: { textAlign: 'center', padding: '6px 4px' } } }}
          />
          <IconButton
            size="small"
            aria-label={`Increase quantity of ${line.name}`}
            onClick={() => setCartQuantity(line.id, line.quantity + 1)}
            disabled={line.quantity >= max}
          >
            <AddIcon fontSize="small" />
          </IconButton>
          <Tooltip title="Remove">
            <IconButton size="small" color="error" aria-label={`Remove ${line.name} from the cart`} onClick={() => removeFromCart(line.id)} sx={{ ml: 'auto' }}>
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
        {line.quantity < line.moq ? (
          <Typography variant="caption" color="warning.main" component="p">
            Minimum order quantity is {line.moq}.
          </Typography>
        ) : null}
      </Box>
      <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
        {formatUsd(line.price * line.quantity)}
      </Typography>
    </Box>
  );
}

/** The cart's content: its lines, the total and the checkout action. Used in the sidebar and in the slide-over. */
export function CartPanel({ lines, notice, added, onCheckout }: { lines: CartLine[]; notice: string | null; added?: string | null; onCheckout: () => void }) {
  const count = cartCount(lines);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }} data-testid="cart">
      <Typography variant="h6" component="h2">
        Cart
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {count ? `${count} item${count === 1 ? '' : 's'}` : 'Your cart is empty.'}
      </Typography>
      {added ? (
        <Alert severity="success" sx={{ mt: 1 }} role="status" data-testid="cart-added">
          {added}
        </Alert>
      ) : null}
      <Divider sx={{ my: 1 }} />
      <Box sx={{ overflowY: 'auto', minHeight: 0 }}>
        {lines.map((line, index) => (
          <Box key={line.id}>
            {index ? <Divider /> : null}
            <CartLineRow line={line} />
          </Box>
        ))}
      </Box>
      <Divider sx={{ my: 1 }} />
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', mb: 1.5 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          Total
        </Typography>
        <Typography variant="h6" component="p" data-testid="cart-total">
          {formatUsd(cartTotal(lines))}
        </Typography>
      </Box>
      {notice ? (
        <Alert severity="warning" sx={{ mb: 1.5 }} role="alert">
          {notice}
        </Alert>
      ) : null}
      <Button variant="contained" size="large" startIcon={<ShoppingCartCheckoutIcon />} onClick={onCheckout} fullWidth>
        Proceed to Checkout
      </Button>
    </Box>
  );
}
