import type { ShippingAddress } from '../../domain/orders/shipping';

/** Where the demo partner and distributor receive their goods. */
export const NORTHWIND: ShippingAddress = {
  firstName: 'Priya',
  lastName: 'Shah',
  email: 'partner@partnerhub.test',
  phone: '+1 206 555 0142',
  addressLine1: '410 Harbour Steps',
  addressLine2: 'Suite 300',
  city: 'Seattle',
  state: 'WA',
  zipCode: '98101',
  country: 'United States',
  specialInstructions: 'Deliver to the loading dock on Post Alley.',
};
export const ATLAS: ShippingAddress = {
  firstName: 'Daniel',
  lastName: 'Okafor',
  email: 'distributor@partnerhub.test',
  phone: '+44 161 555 0199',
  addressLine1: 'Unit 7, Trafford Park Logistics Centre',
  city: 'Manchester',
  state: 'Greater Manchester',
  zipCode: 'M17 1AB',
  country: 'United Kingdom',
};
