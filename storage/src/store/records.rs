//! Templates and contacts: records a tenant keeps unique by one field (a template's name, a
//! contact's phone), so both are one shape: a record tree keyed `tenant ++ id` and an index tree
//! keyed `tenant ++ unique value` → id, written together. Uniqueness itself is the caller's (the
//! tenant actor serialises writes).

use std::marker::PhantomData;

use serde::{de::DeserializeOwned, Serialize};
use ulid::Ulid;

use super::tree::{Opener, Tree, Writes};
use super::{encode, get_of, page, tkey, ulid_value};
use crate::model::{ContactRecord, TemplateRecord};
use crate::StoreError;

/// A record kept unique within its tenant by one field.
pub trait Unique: Serialize + DeserializeOwned {
    /// The owner.
    fn tenant_id(&self) -> Ulid;
    /// The record's id.
    fn id(&self) -> Ulid;
    /// The field that is unique within the tenant.
    fn unique(&self) -> &str;
}

impl Unique for TemplateRecord {
    fn tenant_id(&self) -> Ulid {
        self.tenant_id
    }
    fn id(&self) -> Ulid {
        self.id
    }
    fn unique(&self) -> &str {
        &self.name
    }
}

impl Unique for ContactRecord {
    fn tenant_id(&self) -> Ulid {
        self.tenant_id
    }
    fn id(&self) -> Ulid {
        self.id
    }
    fn unique(&self) -> &str {
        &self.phone
    }
}

/// A record tree and its unique index.
pub struct Indexed<T> {
    name: &'static str,
    records: Tree,
    index: Tree,
    _records: PhantomData<fn() -> T>,
}

/// Templates, unique by name.
pub type Templates = Indexed<TemplateRecord>;
/// Contacts, unique by phone number.
pub type Contacts = Indexed<ContactRecord>;

impl<T: Unique> Indexed<T> {
    pub(super) fn open(db: &Opener, name: &'static str, index: &str) -> Result<Self, StoreError> {
        Ok(Self { name, records: db.tree(name)?, index: db.tree(index)?, _records: PhantomData })
    }

    /// Writes a record and its index entry, dropping the entry of `old_unique` when the unique
    /// field changed. Follow with [`super::Store::commit`].
    pub fn put(&self, r: &T, old_unique: Option<&str>) -> Result<(), StoreError> {
        let tenant = r.tenant_id();
        let mut w = Writes::default();
        if let Some(old) = old_unique {
            w.remove(&self.index, tkey(tenant, old.as_bytes()));
        }
        w.insert(&self.index, tkey(tenant, r.unique().as_bytes()), &r.id().to_bytes());
        w.insert(&self.records, tkey(tenant, &r.id().to_bytes()), encode(r));
        w.apply()
    }

    /// Deletes a record and its index entry. Follow with [`super::Store::commit`].
    pub fn delete(&self, r: &T) -> Result<(), StoreError> {
        let tenant = r.tenant_id();
        let mut w = Writes::default();
        w.remove(&self.index, tkey(tenant, r.unique().as_bytes()));
        w.remove(&self.records, tkey(tenant, &r.id().to_bytes()));
        w.apply()
    }

    /// A record by id.
    pub fn get(&self, tenant: Ulid, id: Ulid) -> Result<Option<T>, StoreError> {
        get_of(&self.records, self.name, tenant, id)
    }

    /// A record by its unique field (a template's name, a contact's phone).
    pub fn find(&self, tenant: Ulid, unique: &str) -> Result<Option<T>, StoreError> {
        match ulid_value(self.index.get(tkey(tenant, unique.as_bytes()))?) {
            Some(id) => self.get(tenant, id),
            None => Ok(None),
        }
    }

    /// How many records the tenant holds, counted on its index (keys and ids only).
    pub fn count(&self, tenant: Ulid) -> Result<usize, StoreError> {
        self.index.count_prefix(tenant.to_bytes())
    }

    /// A tenant's records in creation order after `after`.
    pub fn page(&self, tenant: Ulid, after: Option<Ulid>, limit: usize) -> Result<Vec<T>, StoreError> {
        page(&self.records, self.name, &tenant.to_bytes(), after, limit)
    }
}
