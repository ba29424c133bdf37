/**
 * Library `history`: the tool search's whole history (or a range of it) fetched, lifted, verified and explained
 * into a timeline folder with its changelog, in bounded disk.
 */
export { history, type HistoryOptions, type HistoryResult, type HistoryTimes } from "../history/history.js";
