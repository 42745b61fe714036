import { createContext } from 'react';

/**
 * How many pixels at the bottom of the screen the transfer queue bar covers while it floats there (0
 * while it sits after the items, and without the bar). A list that scrolls on its own pads its end by as
 * much, so that its last item can scroll above the bar (review 2026-11: the bar hid the end of long lists).
 */
export const TransferQueueCover = createContext(0);
