import LockResetIcon from '@mui/icons-material/LockReset';
import SecurityIcon from '@mui/icons-material/Security';
import { Box, Divider, ListItemIcon, ListItemText, MenuItem, Typography } from '@mui/material';
import { forwardRef } from 'react';
import { AppBar, Logout, TitlePortal, UserMenu, useGetIdentity, useUserMenu } from 'react-admin';
import { Link } from 'react-router-dom';
import { CartButton } from '../catalogue/CartButton';
import { NotificationsBell } from '../notifications/NotificationsBell';

const ChangePasswordItem = forwardRef<HTMLAnchorElement>(function ChangePasswordItem(props, ref) {
  const userMenu = useUserMenu();
  return (
    <MenuItem component={Link} to="/change-password" ref={ref} {...props} onClick={() => userMenu?.onClose()}>
      <ListItemIcon>
        <LockResetIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>Change Password</ListItemText>
    </MenuItem>
  );
});

const SecurityItem = forwardRef<HTMLAnchorElement>(function SecurityItem(props, ref) {
  const userMenu = useUserMenu();
  return (
    <MenuItem component={Link} to="/security" ref={ref} {...props} onClick={() => userMenu?.onClose()}>
      <ListItemIcon>
        <SecurityIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>Security</ListItemText>
    </MenuItem>
  );
});

/** The signed-in user at the top of the user menu (the app bar shows only an icon on phones). */
function SignedInAs() {
  const { identity } = useGetIdentity();
  if (!identity) return null;
  return (
    <>
      <Box sx={{ px: 2, py: 1, maxWidth: 280 }} data-testid="signed-in-as">
        <Typography variant="subtitle2" noWrap>
          {identity.fullName}
        </Typography>
        {identity.email ? (
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {String(identity.email)}
          </Typography>
        ) : null}
      </Box>
      <Divider />
    </>
  );
}

/** App bar: page title, the cart, notifications, the user's name and a menu for Change Password, Security (second factors) and Logout. */
export function PortalAppBar() {
  return (
    <AppBar
      color="secondary"
      toolbar={
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <CartButton />
          <NotificationsBell />
        </Box>
      }
      userMenu={
        <UserMenu>
          <SignedInAs />
          <ChangePasswordItem />
          <SecurityItem />
          <Logout />
        </UserMenu>
      }
    >
      <TitlePortal sx={{ fontSize: { xs: '1rem', sm: '1.15rem' }, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} />
    </AppBar>
  );
}
