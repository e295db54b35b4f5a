import { describeTour, useDemoSite } from './support/demo-site.ts';

useDemoSite();
describeTour('cn');
