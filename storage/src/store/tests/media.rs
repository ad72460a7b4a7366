//! Media retention on both engines: an upload no message holds goes after its day, unless it was
//! made before the store had the uses index (a message of then may hold it, and no use says so).

use super::*;

on_both!(uploads_from_before_the_uses_index_are_left_alone);

/// A two-day-old upload of `tenant` (its bytes kept, its record written and committed).
async fn old_upload(s: &Store, tenant: Ulid) -> MediaRecord {
    let mut spool = s.media_spool().unwrap();
    spool.write(&tenant.to_bytes()).unwrap();
    let kept = s.keep_media(spool).unwrap();
    let m = MediaRecord {
        id: s.new_id(),
        tenant_id: tenant,
        content_type: "application/pdf".into(),
        size: kept.size,
        sha256: kept.sha256,
        filename: None,
        phone_id: None,
        created_at: crate::ts::truncate(Utc::now() - chrono::Duration::days(2)),
    };
    s.media().put(&m).unwrap();
    s.commit().await.unwrap();
    m
}

async fn uploads_from_before_the_uses_index_are_left_alone(place: Place) {
    // A store with the index from its start: an old upload nothing holds goes.
    let s = place.open();
    let gone = old_upload(&s, new_id()).await;
    assert_eq!(s.prune_media(None, Utc::now(), 100).unwrap().1, 1);
    assert_eq!(s.media().get(gone.tenant_id, gone.id).unwrap(), None);

    // A store that had uploads before it had the index (its mark is not there yet).
    let kept = old_upload(&s, new_id()).await;
    s.inner.meta.tree().remove(crate::store::media::INDEXED_SINCE).unwrap();
    s.commit().await.unwrap();
    drop(s);
    let s = place.open();
    assert_eq!(s.prune_media(None, Utc::now(), 100).unwrap().1, 0);
    assert_eq!(s.media().get(kept.tenant_id, kept.id).unwrap().as_ref(), Some(&kept), "left alone");
    // Uploads after the upgrade are indexed, and go.
    let later = MediaRecord { id: s.new_id(), created_at: crate::ts::truncate(Utc::now()), ..kept.clone() };
    s.media().put(&later).unwrap();
    let a_day_on = Utc::now() + chrono::Duration::days(2);
    assert_eq!(s.prune_media(None, a_day_on, 100).unwrap().1, 1);
    assert_eq!(s.media().get(later.tenant_id, later.id).unwrap(), None);
}
