import { defaultTheme, type RaThemeOptions } from 'react-admin';

export const BRAND_BLUE = '#0b3d6b';

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    primary: { main: '#0d5ea8', dark: BRAND_BLUE },
    secondary: { main: BRAND_BLUE },
    background: { default: '#f5f7fb' },
  },
  shape: { borderRadius: 8 },
  typography: { fontFamily: 'Roboto, "Segoe UI", Helvetica, Arial, sans-serif' },
  sidebar: { width: 240, closedWidth: 56 },
  components: {
    ...defaultTheme.components,
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiAppBar: { styleOverrides: { colorSecondary: { backgroundColor: BRAND_BLUE } } },
  },
};
