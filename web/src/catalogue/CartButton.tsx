import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import { Badge, IconButton, Tooltip } from '@mui/material';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { cartCount, closeCart, openCart, useCart } from './cart';

/**
 * The cart in the app bar, with the number of units as a badge: reachable from every screen and at
 * every width (on phones the catalogue's cart is a slide-over this button opens).
 */
export function CartButton() {
  const { canDo } = useAccess();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const count = cartCount(useCart());
  // The slide-over belongs to the catalogue: leaving it closes the cart.
  useEffect(() => {
    if (pathname !== '/catalogue') closeCart();
  }, [pathname]);
  if (!canDo('browse-products')) return null;
  const label = count ? `Open cart (${count} item${count === 1 ? '' : 's'})` : 'Open cart (empty)';
  return (
    <Tooltip title="Cart">
      <IconButton
        color="inherit"
        aria-label={label}
        data-testid="app-bar-cart"
        onClick={() => {
          openCart();
          if (pathname !== '/catalogue') navigate('/catalogue');
        }}
      >
        <Badge badgeContent={count} color="error" max={999}>
          <ShoppingCartIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
