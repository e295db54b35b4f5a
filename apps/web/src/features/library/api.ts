import { useQuery } from '@tanstack/react-query';
import { libraryEndpoints, libraryTypesOf, type LibraryTypeAddBody, type LibraryTypeUpdateBody } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { uploadForm } from '../../api/upload.ts';
import { deviceConfigKeys } from '../device-config/api.ts';

/**
 * The device library's calls (spec section 7 "Device types"). The library lives in the type table's answer,
 * so its key is the device pages' type table key: a change refreshes both.
 */
export const libraryApi = {
  typeTable: (signal?: AbortSignal) => call(libraryEndpoints.typeTable, {}, { signal }),
  add: (body: LibraryTypeAddBody) => call(libraryEndpoints.add, { body }),
  update: (body: LibraryTypeUpdateBody) => call(libraryEndpoints.update, { body }),
  remove: (id: string) => call(libraryEndpoints.remove, { query: { id } }),
  uploadIcon: ({ id, file }: { id: string; file: File }) => call(libraryEndpoints.uploadIcon, { body: uploadForm(file, { id }) }),
  removeIcon: (id: string) => call(libraryEndpoints.removeIcon, { params: { id }, body: {} }),
};

/** The type table with every library type of the account, by name. */
export function useLibrary() {
  return useQuery({
    queryKey: deviceConfigKeys.types(),
    queryFn: ({ signal }) => libraryApi.typeTable(signal),
    select: (table) => ({ table, library: libraryTypesOf(table) }),
  });
}

const useLibraryChange = <A, R>(mutationFn: (arg: A) => Promise<R>) => useRefreshingMutation(mutationFn, [deviceConfigKeys.all]);

export const useAddLibraryType = () => useLibraryChange(libraryApi.add);
export const useUpdateLibraryType = () => useLibraryChange(libraryApi.update);
export const useRemoveLibraryType = () => useLibraryChange(libraryApi.remove);
export const useLibraryIcon = () => useLibraryChange(libraryApi.uploadIcon);
export const useRemoveLibraryIcon = () => useLibraryChange(libraryApi.removeIcon);
