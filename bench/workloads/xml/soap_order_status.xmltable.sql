-- What a user writes today to get fixtures/xml/soap_order_status.xml into
-- soap_order_status_envelope (the columns of shape SoapOrderStatusEnvelope) with PostgreSQL's own
-- XML functions: XMLTABLE over the result, its lines, shipments and attributes; xsi:nil elements
-- give '' in XMLTABLE, so each nillable column tests @xsi:nil itself; the header is the
-- soap:Header element as xpath() serialises it, which adds the in-scope declaration of the soap
-- prefix, as serde's xml column does (a standalone element). Not a benchmark workload; it checks
-- the fixture's expected row (test/xml_fixtures.sh).
SELECT (xpath('/soap:Envelope/soap:Header', p.x,
              ARRAY[ARRAY['soap', 'http://schemas.xmlsoap.org/soap/envelope/']]))[1] AS header,
       ROW(r.order_id, r.status, r.placed_at,
           ROW(r.customer_id, r.customer_name, r.customer_email,
               CASE WHEN NOT r.vat_nil THEN r.vat_number END)::soap_customer,
           ROW(r.line1, CASE WHEN NOT r.line2_nil THEN r.line2 END, r.city, r.postal_code, r.country_code)::soap_address,
           (SELECT array_agg(ROW(l.line_no, l.sku, l.description, l.quantity, l.unit_price,
                                 CASE WHEN NOT l.discount_nil THEN l.discount::numeric(12,2) END)::soap_order_line ORDER BY l.ord)
              FROM XMLTABLE(XMLNAMESPACES('http://schemas.acme-logistics.example/orders/2019/04' AS o,
                                          'http://www.w3.org/2001/XMLSchema-instance' AS xsi),
                            '/o:GetOrderStatusResult/o:Lines/o:OrderLine' PASSING r.result
                            COLUMNS ord FOR ORDINALITY, line_no int4 PATH 'o:LineNo', sku text PATH 'o:Sku',
                                    description text PATH 'o:Description', quantity int4 PATH 'o:Quantity',
                                    unit_price numeric(12,2) PATH 'o:UnitPrice', discount text PATH 'o:Discount',
                                    discount_nil boolean PATH 'o:Discount/@xsi:nil = "true"') l),
           (SELECT coalesce(array_agg(ROW(s.carrier, s.tracking_number, s.packages, s.shipped_at,
                                          CASE WHEN NOT s.delivered_nil THEN s.delivered_at::timestamptz END)::soap_shipment
                                      ORDER BY s.ord), '{}')
              FROM XMLTABLE(XMLNAMESPACES('http://schemas.acme-logistics.example/orders/2019/04' AS o,
                                          'http://www.w3.org/2001/XMLSchema-instance' AS xsi),
                            '/o:GetOrderStatusResult/o:Shipments/o:Shipment' PASSING r.result
                            COLUMNS ord FOR ORDINALITY, carrier text PATH 'o:Carrier',
                                    tracking_number text PATH 'o:TrackingNumber', packages int4 PATH 'o:Packages',
                                    shipped_at timestamptz PATH 'o:ShippedAt', delivered_at text PATH 'o:DeliveredAt',
                                    delivered_nil boolean PATH 'o:DeliveredAt/@xsi:nil = "true"') s),
           (SELECT coalesce(array_agg(ROW(a.key, a.value)::soap_attribute ORDER BY a.ord), '{}')
              FROM XMLTABLE(XMLNAMESPACES('http://schemas.acme-logistics.example/orders/2019/04' AS o),
                            '/o:GetOrderStatusResult/o:Attributes/*' PASSING r.result
                            COLUMNS ord FOR ORDINALITY, key text PATH 'local-name()', value text PATH '.') a),
           ROW(r.currency, trim(r.amount)::numeric(12,2))::soap_money
          )::soap_order_status_result AS result
  FROM (SELECT w.body::xml AS x) p,
       XMLTABLE(XMLNAMESPACES('http://schemas.xmlsoap.org/soap/envelope/' AS soap,
                              'http://schemas.acme-logistics.example/orders/2019/04' AS o,
                              'http://schemas.acme-logistics.example/common/2019/04' AS c,
                              'http://www.w3.org/2001/XMLSchema-instance' AS xsi),
                '/soap:Envelope/soap:Body/o:GetOrderStatusResponse/o:GetOrderStatusResult' PASSING p.x
                COLUMNS result xml PATH '.', order_id text PATH 'o:OrderId', status soap_order_status PATH 'o:Status',
                        placed_at timestamptz PATH 'o:PlacedAt',
                        customer_id text PATH 'o:Customer/o:CustomerId', customer_name text PATH 'o:Customer/o:Name',
                        customer_email text PATH 'o:Customer/o:Email', vat_number text PATH 'o:Customer/o:VatNumber',
                        vat_nil boolean PATH 'o:Customer/o:VatNumber/@xsi:nil = "true"',
                        line1 text PATH 'o:ShipTo/c:Line1', line2 text PATH 'o:ShipTo/c:Line2',
                        line2_nil boolean PATH 'o:ShipTo/c:Line2/@xsi:nil = "true"',
                        city text PATH 'o:ShipTo/c:City', postal_code text PATH 'o:ShipTo/c:PostalCode',
                        country_code varchar(2) PATH 'o:ShipTo/c:CountryCode',
                        currency varchar(3) PATH 'o:Total/@currency', amount text PATH 'o:Total') r
